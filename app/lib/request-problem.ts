/** The message a 400 error page carries (readForm's), if any: shown instead of "something went wrong". */
export const requestProblem = (payload: unknown): string | null =>
  typeof payload === "object" && payload !== null && typeof (payload as { message?: unknown }).message === "string" ? (payload as { message: string }).message : null;
