import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getRuntime } from "../../lib/runtime.server";

/** The gym API, mounted under /api in the same process. */
async function handle({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const { api } = await getRuntime();
  return api.fetch(request, { clientIp: (context as { clientIp?: string }).clientIp });
}

export const loader = handle;
export const action = handle;
