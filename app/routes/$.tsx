import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { guardSection, isGuardedSection } from "../components/shell/nav";
import { appFor } from "../lib/host.server";
import { requireStaff } from "../lib/session.server";

/**
 * Any path no route claims: the 404 page (root ErrorBoundary). A guarded section whose pages are not built
 * yet is guarded all the same: staff who may not enter it go to the dashboard, as they will once it exists.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { pathname } = new URL(args.request.url);
  if (appFor(args.request) === "backoffice" && isGuardedSection(pathname)) {
    const { me } = await requireStaff(args);
    const to = guardSection(pathname, me);
    if (to) throw redirect(to);
  }
  throw data({ message: "Not found" }, { status: 404 });
}

export default function NotFound() {
  return null;
}
