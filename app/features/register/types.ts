import type { AnswerOf } from "../../lib/api-contract";

/** A gym anyone may join, as GET /api/public/gyms answers it. */
export type PublicGym = AnswerOf<"get", "/public/gyms/:uuid">;
