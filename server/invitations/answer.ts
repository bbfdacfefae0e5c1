import { Hono } from "hono";
import { z } from "zod";
import { accept, decline, describe } from "./invite";
import { readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { now } from "../core/middleware";

const tokenBody = z.object({ token: z.string().trim().min(1, "Value is required").max(100) });

/**
 * The invited person's answer (decision 0048), from the e-mailed link, without signing in: the token (in the body,
 * never in a URL the logs keep) finds the invitation and so its organisation, before there is a tenant.
 */
export const invitationAnswerRoutes = new Hono<ApiEnv>()
  /** POST /api/invitations/describe { token }: who invites, to be what. */
  .post("/invitations/describe", async (c) => c.json({ data: await describe(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c)) }))
  /** POST /api/invitations/accept { token } */
  .post("/invitations/accept", async (c) => c.json({ data: await accept(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c)) }))
  /** POST /api/invitations/decline { token } */
  .post("/invitations/decline", async (c) => {
    await decline(c.var.deps.db, (await readBody(c, tokenBody)).token, now(c));
    return c.json({ data: { declined: true } });
  });
