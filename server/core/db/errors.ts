/**
 * A write a unique index refused (PostgreSQL 23505): the database decided a race, or the value is taken. Drizzle
 * wraps the driver's error, so the code is on the error or on its cause.
 */
export const isUniqueViolation = (err: unknown) =>
  String((err as { cause?: { code?: string }; code?: string }).cause?.code ?? (err as { code?: string })?.code) === "23505";
