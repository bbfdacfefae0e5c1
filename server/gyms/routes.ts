import { Hono, type Context } from "hono";
import {
  credentialsRequest,
  destinationAccountRequest,
  gymDetailsRequest,
  newGymRequest,
  tracksVisitsRequest,
  type CredentialService,
} from "../../domain/schemas/gyms";
import { archiveGym, openGym, restoreGym } from "./open";
import { gymJoinLinks } from "./join-links";
import { signupUrl } from "../core/config";
import { findGym, gymDetail, listGyms, type GymViewer, saveCredentials, saveDestinationAccount, setTracksVisits, updateGymDetails } from "./settings";
import { z } from "zod";
import { finishConnection, startConnection } from "./connect";
import { storeLogo } from "./logo";
import type { ConnectService } from "../core/providers/connect/connect-provider";
import { sandboxProviders, type Providers } from "../core/providers/registry";
import { publicOrigin } from "../core/links";
import { now } from "../core/middleware";
import { IMAGE_BODY_LIMIT } from "../core/images/accept";
import { ApiError } from "../core/errors";
import { pathId, readBody, readForm } from "../core/body";
import type { ApiEnv } from "../core/context";
import { requireStaff } from "../core/middleware";
import { assertCan, gymsWhere, requireCan } from "../core/permissions";

const admin = [requireStaff, requireCan("gyms.write")] as const;
const reader = [requireStaff, requireCan("gyms.read")] as const;
const opener = [requireStaff, requireCan("gyms.create")] as const;
const providersOf = (c: Context<ApiEnv>): Providers => (c.var.deps.providers ?? sandboxProviders(c.var.tenant.db)).on(c.var.tenant.db);
const exchangeBody = z.object({
  code: z.string({ required_error: "The provider sent no code" }).trim().min(1, "The provider sent no code").max(500),
  state: z.string({ required_error: "The provider sent no state" }).trim().min(1, "The provider sent no state").max(500),
});

/** POST /api/gyms/{id}/{service}/redirect → { url }: the provider's page where the gym's admin connects its account. */
const redirectTo = (service: ConnectService) => async (c: Context<ApiEnv>) => {
  const id = await gymOf(c);
  return c.json({
    data: await startConnection(c.var.tenant, providersOf(c), c.var.user!, id, service, publicOrigin(c), c.var.deps.config.SESSION_SECRET, now(c)),
  });
};

/** POST /api/{service}/exchange { code, state } → the gym, now with its account (the callback page posts this). */
const exchange = (service: ConnectService) => async (c: Context<ApiEnv>) => {
  const given = await readBody(c, exchangeBody);
  const id = await finishConnection(c.var.tenant, providersOf(c), c.var.user!, service, given, publicOrigin(c), c.var.deps.config.SESSION_SECRET, now(c));
  return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
};

/** The user, as a gym's `selected` and `role` see them (SPEC §3 Gym: role -1 where they have none of their own). */
const viewerOf = (c: Context<ApiEnv>): GymViewer => ({
  currentGymId: c.var.user!.gym?.id ?? null,
  roles: new Map(c.var.user!.gyms.flatMap((g) => (g.role === "admin" || g.role === "personal_trainer" ? [[g.id, g.role] as const] : []))),
});

/** The gym in the path, of this organisation (else 404), which the user administers (else 403). */
async function gymOf(c: Context<ApiEnv>, name = "id", capability: "gyms.read" | "gyms.write" = "gyms.write") {
  const id = pathId(c, "No such gym.", name);
  await findGym(c.var.tenant, id);
  assertCan(c.var.user!, capability, id);
  return id;
}

const credentials = (service: CredentialService) => async (c: Context<ApiEnv>) => {
  const id = await gymOf(c);
  await saveCredentials(c.var.tenant, id, service, await readBody(c, credentialsRequest(service)));
  return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
};

/** A gym's settings (SPEC §7 Gyms; issue 15). Rules: server/gyms/settings.ts. */
export const gymRoutes = new Hono<ApiEnv>()
  /** GET /api/gyms: the gyms the user administers (every gym for an organisation admin). */
  .get("/gyms", ...reader, async (c) => c.json({ data: { data: await listGyms(c.var.tenant, gymsWhere(c.var.user!, "gyms.read"), viewerOf(c)) } }))
  /** POST /api/gyms: a new location (issue 32); 201 with the gym as GET /api/gyms/{id} answers it. */
  .post("/gyms", ...opener, async (c) => {
    const id = await openGym(c.var.tenant, c.var.user!.row.id, await readBody(c, newGymRequest));
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) }, 201);
  })
  /** DELETE /api/gyms/{id}/archive: no longer sold or offered in the switchers (never deleted). */
  .delete("/gyms/:id{[0-9]+}/archive", ...opener, async (c) => {
    const id = pathId(c, "No such gym.");
    await archiveGym(c.var.tenant, id, now(c));
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
  })
  .post("/gyms/:id{[0-9]+}/restore", ...opener, async (c) => {
    const id = pathId(c, "No such gym.");
    await restoreGym(c.var.tenant, id, now(c));
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
  })
  /** GET /api/gyms/{id}: its settings, and `join`: its sign-up links to hand out (server/gyms/join-links.ts). */
  .get("/gyms/:id{[0-9]+}", ...reader, async (c) => {
    const gym = await gymDetail(c.var.tenant, await gymOf(c, "id", "gyms.read"), viewerOf(c));
    return c.json({ data: { ...gym, join: await gymJoinLinks(c.var.tenant, gym, signupUrl(c.var.deps.config)) } });
  })
  /** PUT /api/gyms/{id}: name, price-change reply-to, break fee, card surcharge and what members are told about it. */
  .put("/gyms/:id{[0-9]+}", ...admin, async (c) => {
    const id = await gymOf(c);
    await updateGymDetails(c.var.tenant, id, await readBody(c, gymDetailsRequest));
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
  })
  .put("/gyms/:id{[0-9]+}/tracks-visits", ...admin, async (c) => {
    const id = await gymOf(c);
    await setTracksVisits(c.var.tenant, id, (await readBody(c, tracksVisitsRequest)).tracks_visits);
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
  })
  /** PUT /api/gyms/{gymId}/destination-accounts/{accountId}: the account its money goes to (a gym without one: any id). */
  .put("/gyms/:gymId{[0-9]+}/destination-accounts/:accountId{[0-9]+}", ...admin, async (c) => {
    const id = await gymOf(c, "gymId");
    const accountId = Number(c.req.param("accountId"));
    await saveDestinationAccount(c.var.tenant, id, accountId, await readBody(c, destinationAccountRequest));
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) });
  })
  /** POST /api/gyms/{id}/logo (multipart: collection=logo, file): shown in the sidebar and on the gym's sign-up pages. */
  .post("/gyms/:id{[0-9]+}/logo", ...admin, async (c) => {
    const id = await gymOf(c);
    if (!(c.req.header("content-type") ?? "").startsWith("multipart/form-data")) {
      throw new ApiError(415, "Send the logo as multipart/form-data, with collection=logo and the file in a field named file.", "unsupported_media_type");
    }
    if (Number(c.req.header("content-length") ?? 0) > IMAGE_BODY_LIMIT)
      throw new ApiError(413, "The logo is larger than 10 MB.", "payload_too_large", { file: ["The logo is larger than 10 MB"] });
    const form = await readForm(c);
    const g = await gymDetail(c.var.tenant, id, viewerOf(c));
    await storeLogo(c.var.tenant, id, g.uuid, form.collection, form.file);
    return c.json({ data: await gymDetail(c.var.tenant, id, viewerOf(c)) }, 201);
  })
  .post("/gyms/:id{[0-9]+}/stripe/redirect", ...admin, redirectTo("stripe"))
  .post("/stripe/exchange", ...admin, exchange("stripe"))
  .post("/gyms/:id{[0-9]+}/gocardless/redirect", ...admin, redirectTo("gocardless"))
  .post("/gocardless/exchange", ...admin, exchange("gocardless"))
  .put("/gyms/:id{[0-9]+}/branch-config", ...admin, credentials("branch"))
  .put("/gyms/:id{[0-9]+}/akahu-config", ...admin, credentials("akahu"))
  .put("/gyms/:id{[0-9]+}/onesignal-config", ...admin, credentials("onesignal"));
