import { z } from "zod";
import { optional } from "./fields";
import { GYM_MESSAGES, MSG } from "./messages";

/**
 * The schemas forms and the API both validate with. Conform turns empty fields into undefined,
 * so "required" is the message for a missing value as well as an empty one.
 */
const required = <T extends z.ZodTypeAny>(schema: T): T =>
  // The cast keeps the field's own type for forms: trimming does not change what it accepts.
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v) || undefined, schema) as unknown as T;

export const email = required(z.string({ required_error: MSG.required }).max(254, MSG.max(254)).email(MSG.email)).transform((v) => v.toLowerCase());

/** NIST-style: length only, no composition rules; the common-password check happens on the server. */
export const newPassword = z.string({ required_error: MSG.required }).min(8, MSG.passwordLength).max(128, MSG.passwordLong);

export const loginSchema = z.object({
  email,
  password: z.string({ required_error: MSG.required }).max(1024, MSG.max(1024)),
  redirect: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email });

/** A member asks for an e-mailed sign-in link on the sign-up host (issue 31). */
export const signInLinkSchema = z.object({ email });

export const twoFactorSchema = z.object({
  code: required(z.string({ required_error: MSG.required }).regex(/^\d{6}$/, MSG.code)),
});

export const setPasswordSchema = z
  .object({
    token: z.string({ required_error: MSG.required }).min(1, MSG.required),
    password: newPassword,
    password_confirmation: z.string({ required_error: MSG.required }),
    /** An invitee whose inviter did not give their name gives it here (issue 15). */
    name: optional(z.string().trim().max(100, MSG.max(100))),
  })
  .refine((v) => v.password === v.password_confirmation, { path: ["password_confirmation"], message: MSG.same });

export const validateLinkSchema = z.object({ token: z.string({ required_error: MSG.required }).min(1, MSG.required) });

/** How a sign-up link names its gym: the gym's uuid, never its database id. */
export const gymUuid = z.string().uuid();

export const registerSchema = z.object({
  name: required(z.string({ required_error: MSG.required }).max(120, MSG.max(120))),
  email,
  mobile_number: required(
    z
      .string({ required_error: MSG.required })
      .max(20, MSG.max(20))
      .regex(/^\+?[0-9 ()-]{6,20}$/, "Enter a phone number, such as 021 123 4567"),
  ),
  password: newPassword,
  /**
   * The gym the member joins, from the sign-up link (/?gym=uuid) or the chooser. Required: a member of no
   * organisation is one no gym's staff can find.
   */
  gym: required(z.string({ required_error: GYM_MESSAGES.missing }).uuid(GYM_MESSAGES.unknown)),
  /**
   * What the sign-up link named (issue 13): a price on sale at the gym (an integrator's link), or a private price's
   * link token. Optional, and a value naming nothing is dropped rather than refused: the person then chooses a
   * price on the confirm page.
   */
  price: z.preprocess(
    (v) => (typeof v === "string" && /^\d{1,9}$/.test(v.trim()) ? Number(v) : typeof v === "number" ? v : undefined),
    z.number().int().positive().optional(),
  ),
  link: z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined), z.string().max(64).optional()),
  /** Honeypot: people leave it empty, form-filling bots do not. */
  website: z.string().optional(),
});

export const uniqueEmailSchema = z.object({ email });
