import type { ActionFunctionArgs } from "@remix-run/node";
import { passCsvThrough } from "../../lib/csv-export.server";

/** POST /payments/export: the payments list's Export button (../lib/csv-export.server.ts). */
export const action = (args: ActionFunctionArgs) => passCsvThrough(args, "/payments/export", "/payments");
