import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RegisterPage } from "../../features/register/register-page";
import { registerAction, registerLoader } from "../../features/register/register.server";
import { gymApi } from "../../lib/api.server";
import { appFor } from "../../lib/host.server";
import { fetchMe } from "../../lib/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.gym ? `Join ${data.gym.name} · Gym Membership` : data?.gyms ? "Choose your gym · Gym Membership" : "Gym Membership" },
];

/**
 * Back-office: / goes to sign-in (the dashboard when signed in). Sign-up: / is the register page for the gym the
 * link names (/?gym=uuid), or the list of gyms to choose from first.
 */
export async function loader(args: LoaderFunctionArgs) {
  if (appFor(args.request) === "backoffice") {
    const s = await fetchMe(gymApi(args));
    throw redirect(s.state === "ok" && s.me.is_staff ? "/dashboard" : "/login");
  }
  return registerLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  // A shared route: only the sign-up host takes this post (the back-office's is not a page of its app).
  if (appFor(args.request) !== "signup") throw data({ message: "Not found" }, { status: 404 });
  return registerAction(args);
}

export default function Index() {
  const page = useLoaderData<typeof loader>();
  return <RegisterPage choice={page} constraint={page.constraint} lastResult={useActionData<typeof action>()} />;
}
