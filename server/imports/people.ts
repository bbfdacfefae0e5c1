import { sql } from "drizzle-orm";
import type { ImportedMember } from "../../domain/imports";
import type { Tenant } from "../core/db/tenant";
import { rowsOf } from "../core/db/values";

/**
 * Who each imported e-mail address already is (issue 15), read for a batch of rows at once: nobody yet, a member
 * here (maybe removed), staff here, or someone with an account who belongs elsewhere. One place for the rule of what
 * an import may change (decision 0048): a member only its own organisation holds gets their profile updated from the
 * file; a person another organisation holds (now or before) keeps their profile (it is theirs, not this gym's), and
 * gets only this organisation's side (home gym, notes, tags, the price they will join on); and such a person who is
 * not a member here is not added but invited to join.
 */
export interface Existing {
  user_id: number;
  deleted: boolean;
  role: "admin" | "personal_trainer" | "member" | null;
  member_removed: boolean;
  elsewhere: boolean;
  profile: Pick<ImportedMember, "name" | "mobile_number" | "dob" | "address" | "suburb" | "city" | "post_code" | "emergency_contact_name" | "emergency_contact_number">;
  notes: string | null;
  tags: string[];
  price_id: number | null;
  home_gym_id: number | null;
}

export async function existingPeople(t: Tenant, emails: string[]): Promise<Map<string, Existing>> {
  if (!emails.length) return new Map();
  const rows = rowsOf<{
    user_id: number;
    email: string;
    deleted: boolean;
    role: Existing["role"];
    member_removed: boolean;
    elsewhere: boolean;
    name: string;
    mobile_number: string | null;
    dob: string | null;
    address: string | null;
    suburb: string | null;
    city: string | null;
    post_code: string | null;
    emergency_contact_name: string | null;
    emergency_contact_number: string | null;
    notes: string | null;
    tags: string[] | null;
    price_id: number | null;
    home_gym_id: number | null;
  }>(
    await t.db.execute(sql`
    select u.id as user_id, lower(u.email) as email, u.deleted_at is not null as deleted, ou.role,
           coalesce(ou.deleted_at is not null, false) as member_removed, person_known_elsewhere(u.id) as elsewhere,
           u.name, u.mobile_number, u.dob::text as dob, u.address, u.suburb, u.city, u.post_code,
           u.emergency_contact_name, u.emergency_contact_number, ou.notes, ou.tags, ou.signup_price_id as price_id, ou.home_gym_id
    from users u
    left join organisation_users ou on ou.user_id = u.id and ou.organisation_id = ${t.organisationId}
    where lower(u.email) = any(${sql.param(emails)}::text[])`),
  );
  const found = new Map<string, Existing>();
  for (const r of rows) {
    found.set(r.email, {
      user_id: r.user_id,
      deleted: r.deleted,
      role: r.role,
      member_removed: r.member_removed,
      elsewhere: r.elsewhere,
      profile: {
        name: r.name,
        mobile_number: r.mobile_number,
        dob: r.dob,
        address: r.address,
        suburb: r.suburb,
        city: r.city,
        post_code: r.post_code,
        emergency_contact_name: r.emergency_contact_name,
        emergency_contact_number: r.emergency_contact_number,
      },
      notes: r.notes,
      tags: r.tags ?? [],
      price_id: r.price_id,
      home_gym_id: r.home_gym_id,
    });
  }
  return found;
}

export type Outcome =
  | { kind: "create" }
  | { kind: "join"; existing: Existing }
  | { kind: "invite"; existing: Existing }
  | { kind: "update"; existing: Existing; profile: Partial<Existing["profile"]>; membership: { notes?: string; tags?: string[]; price_id?: number | null; home_gym_id?: number } }
  | { kind: "unchanged"; existing: Existing }
  | { kind: "reject"; reason: string };

const PROFILE_FIELDS = ["name", "mobile_number", "dob", "address", "suburb", "city", "post_code", "emergency_contact_name", "emergency_contact_number"] as const;

/**
 * What importing `m` does to the person `existing` (undefined: nobody has the address). The file never erases: an
 * empty cell leaves what we hold; tags are added to theirs.
 */
export function outcomeFor(m: ImportedMember, existing: Existing | undefined, gymId: number): Outcome {
  if (!existing) return { kind: "create" };
  if (existing.deleted) return { kind: "reject", reason: "This e-mail address belonged to an account that was deleted" };
  if (existing.role && existing.role !== "member") return { kind: "reject", reason: "This e-mail address belongs to a member of your staff" };
  // Someone another organisation holds joins only by accepting an invitation (decision 0048).
  if (!existing.role || existing.member_removed) {
    if (!existing.elsewhere) return { kind: "join", existing };
    // An invitation to join would go to someone who left the old gym: only the person can bring their account here.
    if (m.state === "cancelled") return { kind: "reject", reason: "A cancelled member whose account another organisation holds: not invited to join" };
    return { kind: "invite", existing };
  }
  const profile: Partial<Existing["profile"]> = {};
  if (!existing.elsewhere) {
    for (const f of PROFILE_FIELDS) {
      const v = m[f];
      if (v !== null && v !== existing.profile[f]) profile[f] = v as never;
    }
  }
  const membership: { notes?: string; tags?: string[]; price_id?: number | null; home_gym_id?: number } = {};
  if (m.notes !== null && m.notes !== existing.notes) membership.notes = m.notes;
  const extraTags = m.tags.filter((tag) => !existing.tags.includes(tag));
  if (extraTags.length) membership.tags = [...existing.tags, ...extraTags];
  if (m.price_id !== null && m.price_id !== existing.price_id) membership.price_id = m.price_id;
  if (existing.home_gym_id !== gymId) membership.home_gym_id = gymId;
  if (!Object.keys(profile).length && !Object.keys(membership).length) return { kind: "unchanged", existing };
  return { kind: "update", existing, profile, membership };
}
