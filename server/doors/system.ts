import type { Context } from "hono";
import { doorSystemOf, integrationOf } from "./integration";
import type { DoorProvider } from "../core/providers/doors/door-provider";
import { sandboxProviders } from "../core/providers/registry";
import type { ApiEnv } from "../core/context";

/** The server's own door system (sandbox by default, or KISI_API_KEY's account). */
export const serverDoors = (c: Context<ApiEnv>): DoorProvider => (c.var.deps.providers ?? sandboxProviders(c.var.tenant.db)).on(c.var.tenant.db).doors;

/** The door system a call for the session's organisation goes to: its own Kisi account when it connected one. */
export const organisationDoors = async (c: Context<ApiEnv>): Promise<DoorProvider> => doorSystemOf(await integrationOf(c.var.tenant), serverDoors(c));
