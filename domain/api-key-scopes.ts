/**
 * What an integrator's API key may be given (issue 33, decision 0062): read, or read and write, per area. Each level
 * is a set of capabilities of the permission table (server/core/permissions.ts), which is what the API checks; this
 * is only how people choose them.
 */
export const KEY_AREAS = {
  members: { label: "Members", read: ["members.read"], write: ["members.write", "members.delete"] },
  memberships: { label: "Memberships", read: ["memberships.read"], write: ["subscriptions.write"] },
  payments: { label: "Payments", read: ["money.read"], write: ["money.write"] },
  visits: { label: "Visits", read: ["visits.read"], write: ["visits.write"] },
  offerings: { label: "Offerings and prices", read: ["offerings.read"], write: ["offerings.write"] },
  calendar: { label: "Calendar", read: ["calendar.read"], write: ["calendar.write"] },
  classes: { label: "Classes", read: ["classes.read"], write: ["classes.write", "classes.book"] },
} as const;

export type KeyArea = keyof typeof KEY_AREAS;
export type KeyLevel = "none" | "read" | "write";
export const KEY_AREA_NAMES = Object.keys(KEY_AREAS) as KeyArea[];
export type KeyScope = (typeof KEY_AREAS)[KeyArea]["read" | "write"][number];

/** Every key may read which gyms the organisation has: the ids its other calls name. */
export const EVERY_KEY = ["gyms.read"] as const;

/** The capabilities of each area's chosen level (write includes read), and what every key holds. */
export function scopesOf(levels: Partial<Record<KeyArea, KeyLevel>>): (KeyScope | (typeof EVERY_KEY)[number])[] {
  const out: (KeyScope | (typeof EVERY_KEY)[number])[] = [...EVERY_KEY];
  for (const area of KEY_AREA_NAMES) {
    const level = levels[area] ?? "none";
    if (level === "none") continue;
    out.push(...KEY_AREAS[area].read);
    if (level === "write") out.push(...KEY_AREAS[area].write);
  }
  return out;
}

/** Each area's level, as a key's scopes give it. */
export function levelsOf(scopes: readonly string[]): Record<KeyArea, KeyLevel> {
  const has = (caps: readonly string[]) => caps.every((c) => scopes.includes(c));
  return Object.fromEntries(
    KEY_AREA_NAMES.map((area) => [area, has(KEY_AREAS[area].write) && has(KEY_AREAS[area].read) ? "write" : has(KEY_AREAS[area].read) ? "read" : "none"]),
  ) as Record<KeyArea, KeyLevel>;
}

/** "Members: read and write · Payments: read", for lists. */
export function describeLevels(levels: Record<KeyArea, KeyLevel>): string {
  const parts = KEY_AREA_NAMES.filter((a) => levels[a] !== "none").map((a) => `${KEY_AREAS[a].label}: ${levels[a] === "write" ? "read and write" : "read"}`);
  return parts.length ? parts.join(" · ") : "No access";
}
