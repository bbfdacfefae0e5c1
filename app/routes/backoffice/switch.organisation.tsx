import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { switchAction } from "../../lib/switch.server";

/** POST: make another of the user's organisations current, then reload the page the user was on. */
export const action = (args: ActionFunctionArgs) => switchAction(args, "organisation");

export const loader = () => redirect("/dashboard");
