import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { reportBrowserError } from "./browser-reporting";
import { requestProblem } from "../lib/request-problem";

/** The list a page belongs to, to go back to: members pages to Members, the rest to the dashboard. */
function sectionOf(pathname: string) {
  if (pathname.startsWith("/members")) return { to: "/members", label: "Back to members" };
  return { to: "/dashboard", label: "Back to the dashboard" };
}

/**
 * A back-office page's error: shown inside the shell by the staff layout's ErrorBoundary, so the sidebar and
 * search stay usable.
 * 404 covers records of other organisations too (the API answers them exactly like missing ones).
 */
export function PageError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const back = sectionOf(useLocation().pathname);
  if (status >= 500) console.error(error);
  useEffect(() => {
    if (status >= 500 && !isRouteErrorResponse(error)) reportBrowserError(error);
  }, [error, status]);
  const problem = requestProblem(error);
  const [title, text] = problem
    ? ["That did not work", problem]
    : status === 404
      ? ["Not found", "There is nothing here. It may have been deleted, or the link may be wrong."]
      : status === 403
        ? // The refusal's own reason when it gave one (the API's message, a page's rule): "your role" only otherwise.
          ["Not allowed", isRouteErrorResponse(error) && typeof error.data === "string" && error.data.trim() ? error.data : "Your role does not allow this. Ask an organisation admin if you need it."]
        : ["Something went wrong", "Please try again in a moment. If it keeps happening, contact us."];
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-3 text-slate-700">{text}</p>
      <p className="mt-6">
        <Link to={back.to} className="font-medium text-brand-700 underline">
          {back.label}
        </Link>
      </p>
    </div>
  );
}
