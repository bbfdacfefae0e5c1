import { z, type ZodError } from "zod";

/** An optional field: an empty form value or a JSON null counts as absent (SPEC §5: null values are dropped). */
export const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/**
 * A checkbox or a JSON boolean: "on", "true", "1" and true are yes; anything else, or nothing, is no. Optional
 * inside, so a form's constraints do not mark the checkbox `required`.
 */
export const flag = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean().optional()).transform((v) => v ?? false);

/** A zod error as `{ field: [messages] }`, the fields named as a form names them (conform's "prices[0].amount"). */
export function zodErrors(error: ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.reduce<string>((k, part) => (typeof part === "number" ? `${k}[${part}]` : k ? `${k}.${part}` : part), "") || "_";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
