import type { AnswerOf } from "../../lib/api-contract";

export type GymList = AnswerOf<"get", "/gyms">["data"];
export type GymDetail = AnswerOf<"get", "/gyms/:id">;
