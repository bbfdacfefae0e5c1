import { Hono } from "hono";
import { z } from "zod";
import { openInvitations, revoke } from "./invite";
import { pathId, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ownOrganisation } from "../core/guards";
import { now, requireStaff } from "../core/middleware";
import { assertCan } from "../core/permissions";

const kindQuery = z.object({ kind: z.enum(["staff", "member"]).default("staff") });
const capabilityFor = (kind: "staff" | "member") => (kind === "staff" ? "staff.read" : "members.read");

/**
 * An organisation's invitations to people other organisations hold (decision 0048; server/invitations/invite.ts):
 * staff list and withdraw their open ones. The person's own answer is in ./answer.ts.
 */
export const invitationRoutes = new Hono<ApiEnv>()
  /** GET /api/organisations/{id}/invitations?kind=staff|member: the open ones, as this organisation typed them. */
  .get("/organisations/:id{[0-9]+}/invitations", requireStaff, ownOrganisation, async (c) => {
    const { kind } = readQuery(c, kindQuery);
    assertCan(c.var.user!, capabilityFor(kind));
    return c.json({ data: { data: await openInvitations(c.var.tenant, kind, now(c)) } });
  })
  /** DELETE /api/invitations/{id}: withdrawn (staff invitations by those who manage staff, members' by member admins). */
  .delete("/invitations/:id{[0-9]+}", requireStaff, async (c) => {
    const { kind } = readQuery(c, kindQuery);
    assertCan(c.var.user!, kind === "staff" ? "staff.write" : "members.write");
    await revoke(c.var.tenant, pathId(c, "No such invitation."), kind, now(c));
    return c.json({ data: { revoked: true } });
  });
