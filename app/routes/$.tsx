import { data } from "@remix-run/node";

/** Any path no route claims: the 404 page (root ErrorBoundary). */
export function loader() {
  throw data({ message: "Not found" }, { status: 404 });
}

export default function NotFound() {
  return null;
}
