import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

const SEARCH_RESULTS = 20;
/**
 * Candidates each unordered (trigram) branch may contribute. Ranking is exact whenever a branch's
 * matches fit under it; a query matching most of the organisation ("an", "555", "example") still gets
 * its exact and prefix hits first, without the database scoring tens of thousands of rows.
 */
const BRANCH_CAP = 100;
/** A trigram needs three characters; shorter queries match the start of the name, of a word in it, or of the e-mail. */
const MIN_CONTAINS = 3;
const MIN_DIGITS = 3;

export interface MemberHit {
  id: number;
  name: string;
  email: string;
}

/**
 * The indexed expressions, spelled exactly as in drizzle/0002_member_search.sql: PostgreSQL only uses an
 * expression index for the same expression.
 */
type People = { name: PgColumn; email: PgColumn; mobile_number: PgColumn };
export const lowerName = (u: People) => sql`lower(${u.name})`;
export const lowerEmail = (u: People) => sql`lower(${u.email})`;
// The regex is a literal, not a bound parameter: a parameter would not match the index expression.
export const mobileDigits = (u: People) => sql`regexp_replace(${u.mobile_number}, '\\D', '', 'g')`;
/** The btree indexes are in the "C" collation: that is what lets LIKE 'q%' become an index range, in index order. */
export const inC = (e: SQL) => sql`${e} collate "C"`;

/** LIKE treats % _ and \ specially; a user's query means them literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");

/**
 * Digits to match against mobile numbers, ignoring spaces and punctuation on both sides ("0215550" finds
 * "021 555 0123"). Only for queries that look like a phone number: the digits of "sam.smith.123" are part
 * of an e-mail address, and matching them against phone numbers would add unrelated members.
 */
export function phoneDigits(query: string): string | null {
  if (!/^[\d\s()+.-]+$/.test(query)) return null;
  const digits = query.replace(/\D/g, "");
  return digits.length >= MIN_DIGITS ? digits : null;
}

/**
 * Global member search: members of the tenant's organisation whose name, e-mail or mobile number matches
 * `query` (already trimmed, non-empty), best first, at most SEARCH_RESULTS.
 *
 * Organisation-wide on purpose: the member, payment and visit lists follow the current gym, but the top
 * bar's search finds any member of the organisation (members may visit every gym), so no t.inGym here.
 *
 * Ranking: 0 exact name, e-mail or mobile; 1 starts the name, e-mail or mobile; 2 starts a later word of
 * the name (a surname); 3 anywhere (queries of 3+ characters). Within a tier, pg_trgm similarity of the
 * name (of the number, for a phone search) so closer, shorter matches come first; then name, then id.
 *
 * Shape: each way of matching is its own small branch that one index answers (btree range in index order
 * for prefixes, GIN trigram for the rest), each capped, and only the union of their ids is ranked.
 * Membership is a per-row probe (LATERAL … LIMIT 1) so the planner never hashes the whole organisation.
 */
export async function searchMembers(t: Tenant, query: string, gyms: "all" | number[] = "all"): Promise<MemberHit[]> {
  const q = query.toLowerCase();
  const like = escapeLike(q);
  const digits = phoneDigits(query);
  const u = alias(users, "u");

  const membership = t.db
    .select({ one: sql`1`.as("one") })
    .from(organisation_users)
    .where(
      t.where(
        organisation_users,
        eq(organisation_users.user_id, u.id),
        eq(organisation_users.role, "member"),
        isNull(organisation_users.deleted_at),
        // Staff who may read members of some gyms only find members of those gyms.
        gyms === "all" ? undefined : gyms.length ? inArray(organisation_users.home_gym_id, gyms) : sql`false`,
      ),
    )
    .limit(1)
    .as("m");
  const branch = (match: SQL, order: SQL | undefined, cap: number) => {
    const select = t.db.select({ id: u.id }).from(u).crossJoinLateral(membership).where(and(isNull(u.deleted_at), match));
    return sql`(${order ? select.orderBy(order).limit(cap) : select.limit(cap)})`;
  };
  const prefix = (e: SQL, pattern: string) => branch(sql`${inC(e)} like ${pattern}`, inC(e), SEARCH_RESULTS);
  const matching = (e: SQL, pattern: string) => branch(sql`${e} like ${pattern}`, undefined, BRANCH_CAP);

  // E-mail addresses have no spaces: "le n" could only waste time rechecking every "example.net".
  const inEmail = !/\s/.test(q);
  const contains = q.length >= MIN_CONTAINS;
  const branches = [prefix(lowerName(u), `${like}%`), matching(lowerName(u), contains ? `%${like}%` : `% ${like}%`)];
  if (inEmail) branches.push(prefix(lowerEmail(u), `${like}%`));
  if (inEmail && contains) branches.push(matching(lowerEmail(u), `%${like}%`));
  if (digits) branches.push(prefix(mobileDigits(u), `${digits}%`), matching(mobileDigits(u), `%${digits}%`));
  const candidates = sql.join(branches, sql` union `);

  const name = lowerName(users);
  const email = lowerEmail(users);
  const rank = sql<number>`case
    when ${or(sql`${name} = ${q}`, sql`${email} = ${q}`, digits ? sql`${mobileDigits(users)} = ${digits}` : undefined)} then 0
    when ${or(sql`${name} like ${`${like}%`}`, sql`${email} like ${`${like}%`}`, digits ? sql`${mobileDigits(users)} like ${`${digits}%`}` : undefined)} then 1
    when ${name} like ${`% ${like}%`} then 2
    else 3 end`;
  const similarity = digits ? sql`similarity(${mobileDigits(users)}, ${digits})` : sql`similarity(${name}, ${q})`;

  return t.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, sql`(${candidates})`))
    .orderBy(asc(rank), desc(similarity), asc(users.name), asc(users.id))
    .limit(SEARCH_RESULTS);
}

/**
 * A person's name, e-mail or (for phone-like text) mobile number contains the text, case-insensitive. One or two
 * characters cannot use a trigram: they match the start of the name or e-mail, from the "C"-collation prefix
 * indexes (as the global search does for short text). The members, payments and visits lists' text filter.
 */
export function personMatches(q: string, people: People): SQL {
  const lowered = escapeLike(q.toLowerCase());
  if (q.length < 3) return sql`(${inC(lowerName(people))} like ${`${lowered}%`} or ${inC(lowerEmail(people))} like ${`${lowered}%`})`;
  const like = `%${lowered}%`;
  const digits = phoneDigits(q);
  return sql`(${lowerName(people)} like ${like} or ${lowerEmail(people)} like ${like}${digits ? sql` or ${mobileDigits(people)} like ${`%${digits}%`}` : sql``})`;
}
