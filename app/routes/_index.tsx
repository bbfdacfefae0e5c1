import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { RegisterPage } from "../features/register/register-page";
import { registerAction, registerLoader } from "../features/register/register.server";
import { gymApi } from "../lib/api.server";
import { appFor, requireApp } from "../lib/host.server";
import { fetchMe } from "../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Gym Membership" }];

/** Back-office: / goes to sign-in (the dashboard when signed in). Sign-up: / is the register page. */
export async function loader(args: LoaderFunctionArgs) {
  if (appFor(args.request) === "backoffice") {
    const s = await fetchMe(gymApi(args));
    throw redirect(s.state === "ok" && s.me.is_staff ? "/dashboard" : "/login");
  }
  return registerLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  requireApp(args.request, "signup");
  return registerAction(args);
}

export default function Index() {
  return <RegisterPage lastResult={useActionData<typeof action>()} />;
}
