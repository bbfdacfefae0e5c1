import type { AnswerOf } from "../../lib/api-contract";

export type OfferingDetail = AnswerOf<"get", "/offerings/:id">;
export type OfferingPrice = OfferingDetail["prices"][number];
export type FormOptions = AnswerOf<"get", "/offerings/form-options">;
export type OrganisationSettings = AnswerOf<"get", "/organisations/:id">;
