import { Hono, type Context } from "hono";
import { z } from "zod";
import { flag } from "../../domain/schemas/fields";
import { kisiSignature } from "./events";
import { webhookSecrets } from "../core/webhooks/request-secrets";
import { receiveKisi } from "./kisi-webhook";
import { connectDoorSystem, doorGym, integrationView, linkPlace, listPlaces, placeDoors, placeGym, setDoorTracksVisits } from "./integration";
import { findGym } from "../core/find-gym";
import { sandboxPlace, sandboxUnlock } from "../core/providers/doors/sandbox";
import { pathId, readBody } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ownOrganisation } from "../core/guards";
import { organisationDoors, serverDoors } from "./system";
import { notFound } from "../core/errors";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/** The door system (SPEC §7 Access control; issue 15). Rules: server/doors/integration.ts; events: server/doors/events.ts. */
const own = ownOrganisation;
const staff = [requireStaff, requireCan("gyms.write"), own] as const;

const fallbackDoors = serverDoors;
const doorsOf = organisationDoors;

/** Either connects the door system { integration_type, api_key? } or sets a door's visit counting { id, tracks_visits } (SPEC §7). */
const integrationBody = z.union([
  z.object({ id: z.coerce.number().int().positive("Choose a door"), tracks_visits: flag }),
  z.object({ integration_type: z.literal("kisi", { errorMap: () => ({ message: "Choose the door system: kisi" }) }), api_key: z.string().trim().max(200).optional().transform((v) => v || undefined) }),
]);
const placeBody = z.object({ place_id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1, "Choose one of the door system's places").max(50)) });

function sandboxOnly(c: Context<ApiEnv>) {
  if (fallbackDoors(c).mode !== "sandbox") throw notFound("No such page.");
}

export const doorRoutes = new Hono<ApiEnv>()
  .get("/organisations/:id{[0-9]+}/access-control/integration", ...staff, async (c) => c.json({ data: await integrationView(c.var.tenant, fallbackDoors(c).mode) }))
  .post("/organisations/:id{[0-9]+}/access-control/integration", ...staff, async (c) => {
    const body = await readBody(c, integrationBody);
    if ("integration_type" in body) {
      assertCan(c.var.user!, "settings.write", null);
      await connectDoorSystem(c.var.tenant, fallbackDoors(c), body);
    } else {
      assertCan(c.var.user!, "gyms.write", await doorGym(c.var.tenant, body.id));
      await setDoorTracksVisits(c.var.tenant, body.id, body.tracks_visits);
    }
    return c.json({ data: await integrationView(c.var.tenant, fallbackDoors(c).mode) });
  })
  .get("/organisations/:id{[0-9]+}/access-control/places", ...staff, async (c) => c.json({ data: { data: await listPlaces(c.var.tenant, await doorsOf(c)) } }))
  .get("/organisations/:id{[0-9]+}/access-control/places/:placeId{[0-9]+}/doors", ...staff, async (c) =>
    c.json({ data: { data: await placeDoors(c.var.tenant, await doorsOf(c), c.req.param("placeId")) } }),
  )
  /** POST /api/gyms/{id}/access-control/places { place_id }: the gym's place in the door system. */
  .post("/gyms/:id{[0-9]+}/access-control/places", requireStaff, requireCan("gyms.write"), async (c) => {
    const gymId = pathId(c, "No such gym.");
    await findGym(c.var.tenant, gymId);
    assertCan(c.var.user!, "gyms.write", gymId);
    const { place_id } = await readBody(c, placeBody);
    const place = await linkPlace(c.var.tenant, await doorsOf(c), gymId, place_id);
    return c.json({ data: { id: place.id, name: place.name, place_id: place.place_id } }, 201);
  })
  /**
   * The sandbox door system's test panel, for the organisation's own staff (its sandbox account only): a place's
   * doors, and someone trying one.
   */
  .get("/sandbox/kisi/places/:placeId{[0-9]+}", requireStaff, requireCan("gyms.write"), async (c) => {
    sandboxOnly(c);
    const place = await sandboxPlace(c.var.tenant.db, pathId(c, "No such place.", "placeId"), c.var.tenant.organisationId);
    if (!place) throw notFound("No such place.");
    // Gym rights at the place's own gym, not anywhere (a gym admin of one gym does not try another gym's doors).
    assertCan(c.var.user!, "gyms.write", await placeGym(c.var.tenant, String(place.id)));
    return c.json({ data: place });
  })
  .post("/sandbox/kisi/locks/:lockId{[0-9]+}/unlock", requireStaff, requireCan("gyms.write"), async (c) => {
    sandboxOnly(c);
    const lockId = pathId(c, "No such door.", "lockId");
    const { email } = await readBody(c, z.object({ email: z.string({ required_error: "Value is required" }).trim().min(1, "Value is required").email("Value is not a valid email address") }));
    const tried = await sandboxUnlock(c.var.tenant.db, lockId, email, now(c), c.var.tenant.organisationId);
    if (!tried) throw notFound("No such door.");
    assertCan(c.var.user!, "gyms.write", await placeGym(c.var.tenant, tried.placeId));
    // Delivered as Kisi delivers it: signed, to the same receiver the real webhook reaches.
    const body = JSON.stringify(tried.event);
    const secret = (await webhookSecrets(c)).kisi!.secret;
    // The panel's request holds the tenant's connection (PGlite has only one): the event is recorded on it.
    const result = await receiveKisi(c, c.var.tenant.db, body, kisiSignature(body, secret));
    return c.json({ data: { door: tried.lock, opened: tried.event.success, ...result } });
  });
