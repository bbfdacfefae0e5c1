import type { Context } from "hono";
import type { ApiEnv } from "../context";

/** The installation's webhook secrets, loaded with the API (server/api/app.ts). */
export const webhookSecrets = (c: Context<ApiEnv>) => c.var.deps.webhookSecrets ?? Promise.reject(new Error("The API was made without its webhook secrets."));
