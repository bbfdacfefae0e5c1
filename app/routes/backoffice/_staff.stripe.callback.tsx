import type { LoaderFunctionArgs } from "@remix-run/node";
import { connectCallback } from "../../features/gyms/connect.server";

/** Where Stripe sends a gym's admin back after connecting the gym's account (SPEC §2). */
export const loader = (args: LoaderFunctionArgs) => connectCallback(args, "stripe");

export default function Callback() {
  return null;
}
