import { Hono, type Context } from "hono";
import { doorAccessRequest, staffExistsRequest, staffInviteRequest, staffListQuery, staffUpdateRequest } from "../../domain/schemas/staff";
import { CALENDAR_COLOURS, type CalendarColour } from "../../domain/staff";
import { assignableGyms, listStaff, staffMember } from "./read";
import { inviteStaff, removeStaff, resendInvitation, setDeactivated, setDoorAccess, staffExists, updateStaff, type Actor } from "./write";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { organisationDoors } from "../doors/system";
import { ownOrganisation } from "../core/guards";
import { publicOrigin } from "../core/links";
import { now, requireStaff } from "../core/middleware";
import { gymsWhere, requireCan } from "../core/permissions";

const own = ownOrganisation;
const reader = [requireStaff, requireCan("staff.read")] as const;
const writer = [requireStaff, requireCan("staff.write")] as const;

const actorOf = (c: Context<ApiEnv>): Actor => ({ id: c.var.user!.row.id, name: c.var.user!.row.name, scope: gymsWhere(c.var.user!, "staff.write") });
/** The organisation's door system: its own Kisi account when it connected one (server/doors/integration.ts). */
const doorsOf = organisationDoors;
const setPasswordUrl = (c: Context<ApiEnv>) => (token: string) => `${publicOrigin(c, "backoffice")}/set-password?token=${token}`;
const invitationUrl = (c: Context<ApiEnv>) => (token: string) => `${publicOrigin(c, "backoffice")}/invitation?token=${token}`;
const staffId = (c: Context<ApiEnv>) => pathId(c, "No such staff member.");
const answer = async (c: Context<ApiEnv>, id: number) => c.json({ data: await staffMember(c.var.tenant, gymsWhere(c.var.user!, "staff.read"), id) });

/** The organisation's staff (SPEC §7 Staff; issue 15). Rules: server/staff/write.ts. */
export const staffRoutes = new Hono<ApiEnv>()
  /** GET /api/organisations/{id}/staff?status=current|invited|active|deactivated|removed&search= */
  .get("/organisations/:id{[0-9]+}/staff", ...reader, own, async (c) => {
    const q = readQuery(c, staffListQuery);
    const scope = gymsWhere(c.var.user!, "staff.read");
    return c.json({ data: { data: await listStaff(c.var.tenant, scope, q) } });
  })
  /** GET …/staff/form-options: what the invite and edit forms offer this user: the gyms they give roles at, and the colours. */
  .get("/organisations/:id{[0-9]+}/staff/form-options", ...reader, own, async (c) => {
    const scope = gymsWhere(c.var.user!, "staff.write");
    return c.json({ data: { gyms: await assignableGyms(c.var.tenant, scope), may_make_organisation_admins: scope === "all", colours: Object.keys(CALENDAR_COLOURS) as CalendarColour[] } });
  })
  /** POST /api/organisations/{id}/staff { email, name?, role, gyms: [{ id, role }], invite, calendar_colour? } */
  .post("/organisations/:id{[0-9]+}/staff", ...writer, own, async (c) => {
    const input = await readBody(c, staffInviteRequest);
    const done = await inviteStaff(c.var.tenant, actorOf(c), input, now(c), {
      setPassword: setPasswordUrl(c),
      signIn: `${publicOrigin(c, "backoffice")}/login`,
      invitation: invitationUrl(c),
    });
    const mail = done.mail;
    if (mail) c.var.afterCommit(() => c.var.deps.mailer.send(mail));
    // Someone another organisation holds joins when they accept: 202, and nothing of their account in the answer.
    if (done.id === null) return c.json({ data: { invitation_id: done.invitation, email: input.email, awaiting_acceptance: true as const } }, 202);
    const staff = await staffMember(c.var.tenant, "all", done.id);
    return c.json({ data: { ...staff, existing_account: done.existing, invited: Boolean(mail) } }, 201);
  })
  /** POST /api/organisations/{id}/staff-exists { email }: asked before an invitation, to show whom it reaches. */
  .post("/organisations/:id{[0-9]+}/staff-exists", ...writer, own, async (c) => c.json({ data: await staffExists(c.var.tenant, (await readBody(c, staffExistsRequest)).email) }))
  .get("/staff/:id{[0-9]+}", ...reader, async (c) => answer(c, staffId(c)))
  .put("/staff/:id{[0-9]+}", ...writer, async (c) => {
    const id = staffId(c);
    await updateStaff(c.var.tenant, actorOf(c), id, await readBody(c, staffUpdateRequest), now(c));
    return answer(c, id);
  })
  .delete("/staff/:id{[0-9]+}", ...writer, async (c) => {
    const id = staffId(c);
    await removeStaff(c.var.tenant, actorOf(c), await doorsOf(c), id, now(c));
    return answer(c, id);
  })
  .post("/staff/:id{[0-9]+}/resend-invitation", ...writer, async (c) => {
    const mail = await resendInvitation(c.var.tenant, actorOf(c), staffId(c), now(c), setPasswordUrl(c));
    c.var.afterCommit(() => c.var.deps.mailer.send(mail));
    return c.json({ data: { invited: true, to: mail.to } });
  })
  /** POST /api/staff/{id}/kisi-access { access_enabled }: their door access, at the door system and here. */
  .post("/staff/:id{[0-9]+}/kisi-access", ...writer, async (c) => {
    const id = staffId(c);
    await setDoorAccess(c.var.tenant, actorOf(c), await doorsOf(c), id, (await readBody(c, doorAccessRequest)).access_enabled, now(c));
    return answer(c, id);
  })
  .post("/staff/:id{[0-9]+}/deactivate", ...writer, async (c) => {
    const id = staffId(c);
    await setDeactivated(c.var.tenant, actorOf(c), id, true, now(c));
    return answer(c, id);
  })
  .post("/staff/:id{[0-9]+}/reactivate", ...writer, async (c) => {
    const id = staffId(c);
    await setDeactivated(c.var.tenant, actorOf(c), id, false, now(c));
    return answer(c, id);
  });
