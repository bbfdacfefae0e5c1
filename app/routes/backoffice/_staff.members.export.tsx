import type { ActionFunctionArgs } from "@remix-run/node";
import { passCsvThrough } from "../../lib/csv-export.server";

/** POST /members/export: the list page's Export button (../lib/csv-export.server.ts). */
export const action = (args: ActionFunctionArgs) => passCsvThrough(args, "/members/export", "/members");
