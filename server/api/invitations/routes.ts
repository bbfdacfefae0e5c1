import { Hono } from "hono";
import { z } from "zod";
import { accept, decline, describe, openInvitations, revoke } from "../../people/invitations";
import { pathId, readBody, readQuery } from "../body";
import type { ApiEnv } from "../context";
import { ownOrganisation } from "../guards";
import { now, requireStaff } from "../middleware";
import { assertCan } from "../permissions";

const tokenBody = z.object({ token: z.string().trim().min(1, "Value is required").max(100) });
const kindQuery = z.object({ kind: z.enum(["staff", "member"]).default("staff") });
const capabilityFor = (kind: "staff" | "member") => (kind === "staff" ? "staff.read" : "members.read");

/**
 * Invitations to join an organisation (decision 0048; server/people/invitations.ts). The person answers from the
 * e-mailed link without signing in (the token in the body, never in a URL the logs keep); staff list and withdraw
 * their organisation's open ones.
 */
export const invitationRoutes = new Hono<ApiEnv>()
  /** POST /api/invitations/describe { token }: who invites, to be what. */
  .post("/invitations/describe", async (c) => c.json({ data: await describe(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c)) }))
  /** POST /api/invitations/accept { token } */
  .post("/invitations/accept", async (c) => c.json({ data: await accept(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c)) }))
  /** POST /api/invitations/decline { token } */
  .post("/invitations/decline", async (c) => {
    await decline(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c));
    return c.json({ data: { declined: true } });
  })
  /** GET /api/organisations/{id}/invitations?kind=staff|member: the open ones, as this organisation typed them. */
  .get("/organisations/:id{[0-9]+}/invitations", requireStaff, ownOrganisation, async (c) => {
    const { kind } = readQuery(c, kindQuery);
    assertCan(c.var.user!, capabilityFor(kind));
    return c.json({ data: { data: await openInvitations(c.var.tenant, kind, now(c)) } });
  })
  /** DELETE /api/invitations/{id}: withdrawn (staff invitations by those who manage staff, members' by member admins). */
  .delete("/invitations/:id{[0-9]+}", requireStaff, async (c) => {
    const { kind } = readQuery(c, kindQuery);
    assertCan(c.var.user!, kind === "staff" ? "staff.write" : "members.write");
    await revoke(c.var.tenant, pathId(c, "No such invitation."), kind, now(c));
    return c.json({ data: { revoked: true } });
  });
