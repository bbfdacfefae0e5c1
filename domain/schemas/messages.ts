/** The generic validation messages of SPEC §5, in one place. */
export const MSG = {
  required: "Value is required",
  email: "Value is not a valid email address",
  max: (max: number) => `The maximum value allowed is ${max}`,
  same: "The value must be equal to the other value",
  passwordLength: "Use at least 8 characters",
  passwordLong: "Use at most 128 characters",
  code: "Enter the 6-digit code from the e-mail",
} as const;

/** What the sign-up form says about its gym. Here, not beside the schema, so the sign-up page shows them without loading zod. */
export const GYM_MESSAGES = {
  missing: "Choose the gym you are joining.",
  unknown: "This sign-up link is not for a gym we know. Choose your gym from the list.",
};
