import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { switchAction } from "../../lib/switch.server";

/** POST: make another of the user's gyms current, then reload the current route. */
export const action = (args: ActionFunctionArgs) => switchAction(args, "gym");

export const loader = () => redirect("/dashboard");
