import type { ActionFunctionArgs } from "@remix-run/node";
import { passCsvThrough } from "../../lib/csv-export.server";

/** POST /visits/export: the visits list's Export button (../lib/csv-export.server.ts). */
export const action = (args: ActionFunctionArgs) => passCsvThrough(args, "/visits/export", "/visits");
