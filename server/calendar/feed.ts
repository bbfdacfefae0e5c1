import { createHash, randomBytes } from "node:crypto";
import ical from "ical-generator";
import { and, eq, isNull, or } from "drizzle-orm";
import { openSecret, sealSecret } from "../core/crypto/secrets";
import type { Db } from "../core/db/client";
import { organisation_users, organisations } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { entriesBetween } from "./entries";
import { bookedClassEvents, taughtClassEvents } from "./class-events";

/**
 * A trainer's private calendar feed (issue 16): an iCalendar URL their phone subscribes to, holding their sessions
 * and the classes they teach (issue 34) from a month back to six months ahead (appointments, recurring sessions and
 * classes, each an event of its own so every calendar app shows the moved and cancelled ones right). The URL's token is the only key: it is kept sealed (to show
 * it again) and hashed (to find the trainer without a session); a new link replaces the old, which stops working.
 */
const PAST_DAYS = 31;
const AHEAD_DAYS = 183;
const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export const feedPath = (token: string) => `/api/calendar-feeds/${token}.ics`;

/** The trainer's current link token in this organisation, or null when they have none. */
export async function feedToken(t: Tenant, userId: number): Promise<string | null> {
  const [row] = await t.db
    .select({ sealed: organisation_users.calendar_feed_token })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  return row?.sealed ? openSecret(row.sealed) : null;
}

/** A new link (the old one stops working), or none (`off`). */
export async function renewFeedToken(t: Tenant, userId: number, off = false): Promise<string | null> {
  const token = off ? null : randomBytes(24).toString("base64url");
  await t.db
    .update(organisation_users)
    .set({ calendar_feed_token: token ? sealSecret(token) : null, calendar_feed_hash: token ? hash(token) : null })
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  return token;
}

/**
 * Whose feed a token opens: found on the system's handle, since there is no session to say the organisation. A
 * trainer's needs the calendar; a member's (their classes, issue 34) does not, as classes are every organisation's.
 */
export async function feedOwner(db: Db, token: string): Promise<{ organisation_id: number; user_id: number; organisation: string; role: string } | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [row] = await db
    .select({
      organisation_id: organisation_users.organisation_id,
      user_id: organisation_users.user_id,
      organisation: organisations.name,
      role: organisation_users.role,
    })
    .from(organisation_users)
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .where(
      and(
        eq(organisation_users.calendar_feed_hash, hash(token)),
        or(eq(organisations.calendar_and_messaging, true), eq(organisation_users.role, "member")),
        isNull(organisation_users.deleted_at),
        isNull(organisation_users.deactivated_at),
      ),
    );
  return row ?? null;
}

/** The trainer's sessions, or the member's classes, as an iCalendar document. */
export async function feedCalendar(t: Tenant, owner: { user_id: number; organisation: string; role?: string }, now: Date, host: string): Promise<string> {
  const from = new Date(now.getTime() - PAST_DAYS * 86_400_000);
  const to = new Date(now.getTime() + AHEAD_DAYS * 86_400_000);
  const member = owner.role === "member";
  const entries = member ? [] : await entriesBetween(t, null, from, to, { trainer_id: owner.user_id });
  const classes = member ? await bookedClassEvents(t, owner.user_id, from, to) : [];
  const teaching = member ? [] : await taughtClassEvents(t, owner.user_id, from, to);
  const cal = ical({
    name: `${owner.organisation} ${member ? "classes" : "sessions"}`,
    prodId: { company: "Gym Membership", product: "calendar", language: "EN" },
    timezone: "Pacific/Auckland",
    ttl: 15 * 60,
  });
  for (const e of entries) {
    cal.createEvent({
      // A series' session keeps its UID when it is moved (it then has a row of its own), so the phone moves the
      // event it has rather than adding a second one.
      id: e.series_id && e.occurrence_day ? `series-${e.series_id}-${e.occurrence_day}@${host}` : `appointment-${e.id}@${host}`,
      start: e.starts_at,
      end: e.ends_at,
      stamp: now,
      summary: `${e.member.name} (personal training)`,
      description: e.notes ?? undefined,
      location: e.gym,
    });
  }
  for (const c of classes) {
    // One UID per class and member: booked from the waitlist, the same event changes rather than doubles.
    cal.createEvent({
      id: `class-${c.occurrence_id}-member@${host}`,
      start: c.starts_at,
      end: c.ends_at,
      stamp: now,
      summary: c.status === "waitlisted" ? `${c.name} (waitlist)` : c.name,
      location: c.room ? `${c.gym}, ${c.room}` : c.gym,
    });
  }
  for (const c of teaching) {
    // Its own UID (not the member's): a trainer who also books classes sees both, and a class handed over moves feeds.
    cal.createEvent({
      id: `class-${c.occurrence_id}-trainer@${host}`,
      start: c.starts_at,
      end: c.ends_at,
      stamp: now,
      summary: `${c.name} (class)`,
      location: c.room ? `${c.gym}, ${c.room}` : c.gym,
    });
  }
  return cal.toString();
}
