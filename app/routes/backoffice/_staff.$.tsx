import { data } from "@remix-run/node";

/**
 * Any address no route claims, on either host. It sits below the staff layout so that staff who follow a dead
 * link keep the sidebar and search: the layout's ErrorBoundary shows the 404 inside the shell. The layout's
 * loader answers everyone else (guests, members, the sign-up host) with the bare 404 page, and runs the
 * section guards (app/components/shell/nav.ts) for sections whose pages are not built yet.
 */
export function loader() {
  throw data({ message: "Not found" }, { status: 404 });
}

export default function NotFound() {
  return null;
}
