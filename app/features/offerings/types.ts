import type { AnswerOf } from "../../lib/api-contract";

export type OfferingList = AnswerOf<"get", "/offerings">["data"];
export type OfferingDetail = AnswerOf<"get", "/offerings/:id">;
export type OfferingPrice = OfferingDetail["prices"][number];
export type FormOptions = AnswerOf<"get", "/offerings/form-options">;
export type OrganisationSettings = AnswerOf<"get", "/organisations/:id">;
export type OrganisationPrice = AnswerOf<"get", "/organisations/:id/prices">["data"][number];
