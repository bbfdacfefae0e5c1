import type { AnswerOf } from "../../lib/api-contract";

export type GymList = AnswerOf<"get", "/gyms">["data"];
