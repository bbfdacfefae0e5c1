import { eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { personMatches } from "./queries";

const TEXT_IDS_MAX = 5000;

/**
 * A text search's members (name, e-mail or mobile, as on /members): found first, in the organisation, so the list
 * walks their own payments or visits by the member index rather than every row of the range testing each; a text
 * so broad it matches more than TEXT_IDS_MAX members stays a subquery.
 */
export async function memberText(t: Tenant, q: string, column: PgColumn): Promise<SQL> {
  const people = { name: users.name, email: users.email, mobile_number: users.mobile_number };
  const found = await t.db
    .select({ id: organisation_users.user_id })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(t.where(organisation_users, personMatches(q, people)))
    .limit(TEXT_IDS_MAX + 1);
  // One array parameter, however many members: `= any` of it uses the (organisation, member, day) index.
  if (found.length <= TEXT_IDS_MAX) return found.length ? sql`${column} = any(${`{${found.map((r) => r.id).join(",")}}`}::int[])` : sql`false`;
  return sql`${column} in (select ${users.id} from ${users} where ${personMatches(q, people)} offset 0)`;
}
