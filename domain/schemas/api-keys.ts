import { z } from "zod";
import { KEY_AREA_NAMES, type KeyArea, type KeyLevel } from "../api-key-scopes";
import { MSG } from "./messages";

const level = z.preprocess(
  (v) => (v === undefined || v === "" ? "none" : v),
  z.enum(["none", "read", "write"], { message: "Choose no access, read, or read and write" }),
);

/**
 * POST /api/api-keys and the Developers page's form (issue 33): a name, a level per area (domain/api-key-scopes.ts),
 * and requests a minute. At least one area must be chosen: a key that may do nothing is a mistake.
 */
export const apiKeyCreateSchema = z
  .object({
    name: z.preprocess((v) => (typeof v === "string" ? v.trim() : v) || undefined, z.string({ required_error: MSG.required }).max(80, MSG.max(80))),
    ...(Object.fromEntries(KEY_AREA_NAMES.map((a) => [a, level])) as Record<KeyArea, typeof level>),
    rate_limit_per_minute: z.preprocess(
      (v) => (v === undefined || v === "" ? 600 : typeof v === "string" ? Number(v) : v),
      z
        .number({ message: "Enter a whole number from 10 to 6000" })
        .int("Enter a whole number from 10 to 6000")
        .min(10, "Enter a whole number from 10 to 6000")
        .max(6000, "Enter a whole number from 10 to 6000"),
    ),
  })
  .superRefine((v, ctx) => {
    if (KEY_AREA_NAMES.every((a) => (v[a] as KeyLevel) === "none"))
      ctx.addIssue({ code: "custom", path: ["members"], message: "Give the key access to at least one area" });
  });
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;
