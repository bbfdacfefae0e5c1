import { isRouteErrorResponse } from "@remix-run/react";

/**
 * What an error page says about a refused request (4xx other than 404 and 403, which have their own pages):
 * the message it carries (readForm's, or the API's passed on by redirectForApiError), if any.
 */
export function requestProblem(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status < 400 || error.status >= 500 || error.status === 404 || error.status === 403) return null;
  const payload: unknown = error.data;
  if (typeof payload === "string" && payload) return payload;
  if (typeof payload === "object" && payload !== null && typeof (payload as { message?: unknown }).message === "string") return (payload as { message: string }).message;
  return "The request could not be handled. Go back and try again.";
}
