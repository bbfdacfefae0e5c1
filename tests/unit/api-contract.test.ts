import { describe, expectTypeOf, it } from "vitest";
import type { AnswerOf, PathFor } from "../../app/lib/api-contract";
import type { GymApi } from "../../app/lib/api.server";

// Checked by the typecheck (`tsc`, part of npm test): each line fails to compile if the contract stops
// binding a path to what its handler sends — an `any` or `unknown` answer fails the first block.
describe("the API contract binds each path to its handler's answer", () => {
  it("answers the handler's own type, after JSON", () => {
    expectTypeOf<AnswerOf<"get", "/me">["email"]>().toEqualTypeOf<string>();
    expectTypeOf<AnswerOf<"get", "/members/:id">["can"]>().toEqualTypeOf<{ edit: boolean; delete: boolean; see_money: boolean; change_membership: boolean; take_money: boolean }>();
    // A Date the handler sends (the session row's timestamp) arrives as a string.
    expectTypeOf<AnswerOf<"get", "/me">["email_verified_at"]>().toEqualTypeOf<string | null>();
    expectTypeOf<AnswerOf<"delete", "/members/:id">>().toEqualTypeOf<{ id: number; name: string; deleted: true }>();
  });

  it("knows which paths answer which method", () => {
    expectTypeOf<"/members/:id">().toMatchTypeOf<PathFor<"get">>();
    expectTypeOf<"/members/export">().not.toMatchTypeOf<PathFor<"get">>();
    expectTypeOf<"/no-such-path">().not.toMatchTypeOf<PathFor<"post">>();
  });

  it("requires a path's params", () => {
    const api = null as unknown as GymApi;
    const calls = () => {
      // @ts-expect-error the member's id is missing
      void api.get("/members/:id");
      // @ts-expect-error a param the path does not have
      void api.get("/members/:id", { params: { member: 1 } });
      // @ts-expect-error the API has no such path
      void api.get("/members/:id/nothing", { params: { id: 1 } });
      void api.get("/members/:id", { params: { id: 1 } });
    };
    expectTypeOf(calls).toBeFunction();
  });
});
