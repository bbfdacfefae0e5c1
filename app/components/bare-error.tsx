import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { reportBrowserError } from "./browser-reporting";
import { requestProblem } from "../lib/request-problem";

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
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-3xl font-bold">{notFound ? "Page not found" : badRequest ? "That did not work" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-600">
        {notFound ? "There is nothing at this address." : (badRequest ?? "Please try again in a moment. If it keeps happening, contact us.")}
      </p>
      <p className="mt-8">
        <a href="/" className="font-medium text-brand-600 underline">
          Go to the start page
        </a>
      </p>
    </main>
  );
}
