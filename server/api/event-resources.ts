import { eq } from "drizzle-orm";
import { signupUrl, type Config } from "../core/config";
import { subscriptions } from "../core/db/schema";
import type { EventResources } from "../outgoing-webhooks/events";
import { memberDetail, statusCard } from "../members/detail";
import { findMember } from "../members/find";
import { paymentRow } from "../payments/list";
import { visitRow } from "../visits/list";
import { classBookingEntity } from "../entities/class-booking";
import { classEntityById } from "../entities/class";

/**
 * What an outgoing webhook's `data` holds (issue 33): each resource as the API answers it, read by the resource's own
 * code in the transaction that recorded the event. Handed to server/outgoing-webhooks by the composition, as those
 * resources record events themselves and the outbox must not import them back.
 * - member: GET /api/members/{id} (without the asker's `can`);
 * - subscription: the member's `latest_subscription` card, with its member and gym;
 * - payment: a row of GET /api/payments; visit: a row of GET /api/visits;
 * - class_booking: a booking with its member and class; class: a class with its counts (issue 34, server/entities/).
 */
export const eventResourcesFor = (config: Config): EventResources => ({
  member: async (t, id, at) => memberDetail(t, await findMember(t, String(id)), { at, signupBase: signupUrl(config) }),
  subscription: async (t, id, at) => {
    const [s] = await t.db
      .select({ user_id: subscriptions.user_id, gym_id: subscriptions.gym_id })
      .from(subscriptions)
      .where(t.where(subscriptions, eq(subscriptions.id, id)));
    const card = s ? await statusCard(t, id, at) : null;
    return card && { ...card, user_id: s.user_id, gym_id: s.gym_id };
  },
  payment: (t, id) => paymentRow(t, id),
  visit: (t, id) => visitRow(t, id),
  class_booking: (t, id) => classBookingEntity(t, id),
  class: (t, id) => classEntityById(t, id),
});
