import type { AnswerOf } from "../../lib/api-contract";

/** A gym anyone may join, as GET /api/public/gyms answers it. */
export type PublicGym = AnswerOf<"get", "/public/gyms">[number];
/** One gym, with the price the sign-up link names (when it names one on sale there). */
export type PublicGymWithPrice = AnswerOf<"get", "/public/gyms/:uuid">;
