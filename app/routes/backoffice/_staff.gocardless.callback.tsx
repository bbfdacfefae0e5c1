import type { LoaderFunctionArgs } from "@remix-run/node";
import { connectCallback } from "../../features/gyms/connect.server";

/** Where GoCardless sends a gym's admin back after connecting the gym's account (SPEC §2). */
export const loader = (args: LoaderFunctionArgs) => connectCallback(args, "gocardless");

export default function Callback() {
  return null;
}
