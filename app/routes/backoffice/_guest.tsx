import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { gymApi } from "../../lib/api.server";
import { fetchMe, guardGuestPage } from "../../lib/session.server";

/** Back-office guest pages: staff who are already signed in go to the dashboard. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const to = guardGuestPage(await fetchMe(api));
  if (to) throw redirect(to);
  return null;
}

export default function GuestLayout() {
  return <Outlet />;
}
