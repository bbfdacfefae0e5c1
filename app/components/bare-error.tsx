import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { reportBrowserError } from "./browser-reporting";
import { requestProblem } from "../lib/request-problem";
import { BareErrorMessage, NOT_FOUND } from "./not-found-page";

/**
 * The error page without the back-office shell: for guests, the sign-up host, unknown hosts, and any error
 * the staff layout could not load its own data for. It offers only the start page, which every visitor has.
 */
export function BareError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A refused request (a form without its Content-Type, a body too large) says why, rather than blaming us.
  const badRequest = requestProblem(error);
  if (!notFound && !badRequest) console.error(error);
  useEffect(() => {
    if (!notFound && !badRequest && !isRouteErrorResponse(error)) reportBrowserError(error);
  }, [error, notFound, badRequest]);
  return (
    <BareErrorMessage
      heading={notFound ? NOT_FOUND.heading : badRequest ? "That did not work" : "Something went wrong"}
      text={notFound ? NOT_FOUND.text : (badRequest ?? "Please try again in a moment. If it keeps happening, contact us.")}
    />
  );
}
