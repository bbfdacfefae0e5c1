import { reportError } from "../core/observability/report";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { IMPORTED_STATE_TAGS, type ImportedMember } from "../../domain/imports";
import { createLink } from "../core/auth/password-links";
import { backofficeUrl, type Config } from "../core/config";
import type { Db } from "../core/db/client";
import { insertRows } from "../core/db/bulk";
import { gyms, member_import_rejections, member_imports, organisation_users, users } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import type { Mail, Mailer } from "../core/mail/mailer";
import { importInviteMail } from "../core/mail/templates";
import { invite } from "../invitations/invite";
import { BATCH_ROWS, judgeBatch, readingOf, type Judged } from "./analyse";
import { batchesOf, dataRows } from "./csv-rows";
import { fileOf, findImport } from "./manage";
import { recordWebhookEvents } from "../outgoing-webhooks/events";

/**
 * The import job (issue 15; the `member-imports` queue): works through each confirmed import, oldest first, a batch
 * of rows per transaction — the batch's members written and the import's counts and `next_line` moved on together —
 * so a job stopped half-way (a deploy) goes on with the next batch, and nothing is written twice. Rows are judged
 * again as they are written (people.ts): whoever signed up since the dry run is updated, not duplicated. Importing
 * the same file again finds every member unchanged and creates nothing.
 */
/**
 * Where an import's links go: the back-office's set-password page for the accounts it creates, and its invitation
 * page for people another organisation holds.
 */
export const importLinks = (config: Config): ImportLinks => ({
  setPassword: (token) => `${backofficeUrl(config)}/set-password?token=${token}`,
  invitation: (token) => `${backofficeUrl(config)}/invitation?token=${token}`,
});
export interface ImportLinks {
  setPassword: (token: string) => string;
  invitation: (token: string) => string;
}

export interface ImportJobReport {
  imports: number;
  rows: number;
}

export async function runImports(db: Db, mailer: Mailer, links: ImportLinks, now: () => Date = () => new Date()): Promise<ImportJobReport> {
  const report: ImportJobReport = { imports: 0, rows: 0 };
  for (;;) {
    const [next] = await db
      .select({ id: member_imports.id, organisation_id: member_imports.organisation_id })
      .from(member_imports)
      .where(inArray(member_imports.status, ["queued", "running"]))
      .orderBy(asc(member_imports.id))
      .limit(1);
    if (!next) return report;
    report.imports++;
    try {
      report.rows += await runOne(db, mailer, next.organisation_id, next.id, links, now);
    } catch (err) {
      reportError(`[imports] import ${next.id} stopped`, err, { job: "member-imports" });
      await db
        .update(member_imports)
        .set({ status: "failed", error: "The import stopped on an error of ours. The rows before it are imported; start a new import to finish.", finished_at: now(), updated_at: now() })
        .where(eq(member_imports.id, next.id));
    }
  }
}

async function runOne(db: Db, mailer: Mailer, organisationId: number, id: number, links: ImportLinks, now: () => Date) {
  const { imp, content } = await withTenant(db, organisationId, null, async (t) => {
    const found = await findImport(t, id);
    return { imp: found, content: await fileOf(t, id) };
  });
  const reading = readingOf(imp, now());
  // Resumed: the addresses of the rows already done, so a later row with one of them is still a duplicate.
  const seen = new Map<string, number>();
  const emailColumn = imp.mapping.indexOf("email");
  if (imp.next_line > 0) {
    for await (const r of dataRows(content)) {
      if (r.row - 1 > imp.next_line) break;
      const e = (r.cells[emailColumn] ?? "").trim().toLowerCase();
      if (e && !seen.has(e)) seen.set(e, r.row);
    }
  }
  await db.update(member_imports).set({ status: "running", started_at: imp.started_at ?? now(), updated_at: now() }).where(eq(member_imports.id, id));
  let rows = 0;
  for await (const batch of batchesOf(dataRows(content, imp.next_line), BATCH_ROWS)) {
    const invitations = await withTenant(
      db,
      organisationId,
      imp.gym_id,
      async (t) => {
        const judged = await judgeBatch(t, batch, reading, imp.gym_id, seen);
        const counts = await writeBatch(t, judged, imp, now(), links.invitation);
        await t.db
          .update(member_imports)
          .set({
            next_line: sql`${member_imports.next_line} + ${batch.length}`,
            created_count: sql`${member_imports.created_count} + ${counts.created}`,
            updated_count: sql`${member_imports.updated_count} + ${counts.updated}`,
            unchanged_count: sql`${member_imports.unchanged_count} + ${counts.unchanged}`,
            rejected_count: sql`${member_imports.rejected_count} + ${counts.rejected}`,
            invited_to_join_count: sql`${member_imports.invited_to_join_count} + ${counts.invitations.length}`,
            updated_at: now(),
          })
          .where(t.where(member_imports, eq(member_imports.id, id)));
        return counts.invitations;
      },
      { atomic: true },
    );
    // Sent once the batch is committed: an invitation that was rolled back is never mailed.
    for (const mail of invitations) await mailer.send(mail);
    rows += batch.length;
  }
  await db.update(member_imports).set({ status: "done", finished_at: now(), updated_at: now() }).where(eq(member_imports.id, id));
  if (imp.invite) {
    const mails = await withTenant(db, organisationId, imp.gym_id, (t) => inviteImported(t, id, links.setPassword, now()), { atomic: true });
    for (const mail of mails) await mailer.send(mail);
  }
  return rows;
}

const profileOf = (m: ImportedMember) => ({
  name: m.name,
  mobile_number: m.mobile_number,
  dob: m.dob,
  address: m.address,
  suburb: m.suburb,
  city: m.city,
  post_code: m.post_code,
  emergency_contact_name: m.emergency_contact_name,
  emergency_contact_number: m.emergency_contact_number,
});

/** Writes one judged batch; answers what it did. */
async function writeBatch(t: Tenant, judged: Judged[], imp: { id: number; gym_id: number; created_by: number }, now: Date, invitationUrl: (token: string) => string) {
  const importId = imp.id;
  const gymId = imp.gym_id;
  const counts = { created: 0, updated: 0, unchanged: 0, rejected: 0, invitations: [] as Mail[] };
  const rejected: { line: number; reason: string }[] = [];
  const joining: { userId: number; m: ImportedMember }[] = [];
  const creates: ImportedMember[] = [];
  const [inviter] = await t.db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, imp.created_by));
  const touched: number[] = [];
  const updated: number[] = [];
  for (const j of judged) {
    const o = j.outcome;
    if (o.kind === "reject") rejected.push({ line: j.row.row, reason: o.reason });
    else if (o.kind === "create") creates.push(j.member!);
    else if (o.kind === "join") joining.push({ userId: o.existing.user_id, m: j.member! });
    else if (o.kind === "invite") {
      const m = j.member!;
      const asked = await invite(
        t,
        {
          userId: o.existing.user_id,
          email: m.email,
          name: m.name,
          role: "member",
          homeGymId: gymId,
          membership: { notes: m.notes, tags: m.tags, signup_price_id: m.price_id, joined_on: m.joined_on },
          importId,
          invitedBy: inviter,
        },
        now,
        invitationUrl,
      );
      counts.invitations.push(asked.mail);
    }
    else if (o.kind === "unchanged") {
      counts.unchanged++;
      touched.push(o.existing.user_id);
    } else {
      if (Object.keys(o.profile).length) await t.db.update(users).set({ ...o.profile, updated_at: now }).where(eq(users.id, o.existing.user_id));
      const ms = o.membership;
      await t.db
        .update(organisation_users)
        .set({
          ...(ms.notes !== undefined ? { notes: ms.notes } : {}),
          ...(ms.tags ? { tags: ms.tags } : {}),
          ...(ms.price_id !== undefined ? { signup_price_id: ms.price_id } : {}),
          ...(ms.home_gym_id ? { home_gym_id: ms.home_gym_id } : {}),
          updated_at: now,
        })
        .where(t.where(organisation_users, eq(organisation_users.user_id, o.existing.user_id)));
      counts.updated++;
      touched.push(o.existing.user_id);
      updated.push(o.existing.user_id);
    }
  }
  // Many rows a statement, one array parameter a column (server/core/db/bulk.ts): a 1,000-row batch is two inserts.
  if (creates.length) {
    await insertRows(
      t.db,
      users,
      creates.map((m) => ({ ...profileOf(m), email: m.email, current_organisation_id: t.organisationId, current_gym_id: gymId, created_at: now, updated_at: now })),
      // An address that got an account between the lookup and now (a sign-up) joins as that person.
      { onConflict: sql` on conflict do nothing` },
    );
    const ids = new Map(
      (await t.db.select({ id: users.id, email: sql<string>`lower(${users.email})` }).from(users).where(sql`lower(${users.email}) = any(${sql.param(creates.map((m) => m.email))}::text[])`)).map((u) => [u.email, u.id]),
    );
    for (const m of creates) {
      const id = ids.get(m.email);
      if (id) joining.push({ userId: id, m });
    }
  }
  if (joining.length) {
    await insertRows(
      t.db,
      organisation_users,
      joining.map(({ userId, m }) =>
        t.owned({
          user_id: userId,
          role: "member" as const,
          home_gym_id: gymId,
          notes: m.notes,
          tags: m.tags,
          signup_price_id: m.price_id,
          import_id: importId,
          created_at: m.joined_on ? new Date(`${m.joined_on}T00:00:00Z`) : now,
          updated_at: now,
        }),
      ),
      // Removed earlier and now in the file: back as a member of this gym.
      {
        onConflict: sql` on conflict (organisation_id, user_id) do update set deleted_at = null, home_gym_id = excluded.home_gym_id, import_id = excluded.import_id, updated_at = excluded.updated_at where organisation_users.role = 'member'`,
      },
    );
    counts.created += joining.length;
  }
  // Outgoing webhooks: each member joined or changed by the file, in this batch's transaction.
  await recordWebhookEvents(
    t.db,
    [
      ...joining.map(({ userId }) => ({ organisationId: t.organisationId, type: "member.created" as const, id: userId })),
      ...updated.map((userId) => ({ organisationId: t.organisationId, type: "member.updated" as const, id: userId })),
    ],
    now,
    t,
  );
  if (touched.length) {
    await t.db
      .update(organisation_users)
      .set({ import_id: importId })
      .where(t.where(organisation_users, sql`${organisation_users.user_id} = any(${sql.param(touched)}::int[])`));
  }
  if (rejected.length) {
    await insertRows(t.db, member_import_rejections, rejected.map((r) => t.owned({ import_id: importId, line: r.line, reason: r.reason })));
    counts.rejected = rejected.length;
  }
  return counts;
}

/**
 * Invitations for the import's members who have no password, were never invited and were not cancelled in the file: a
 * link to set one (then they sign in, choose how to pay and start on the price the file gave them). Answers how many
 * were sent.
 */
export async function inviteImported(t: Tenant, importId: number, inviteUrl: (token: string) => string, now: Date): Promise<Mail[]> {
  const [gym] = await t.db.select({ name: gyms.name }).from(gyms).innerJoin(member_imports, eq(member_imports.gym_id, gyms.id)).where(t.where(member_imports, eq(member_imports.id, importId)));
  const people = await t.db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(
      t.where(
        organisation_users,
        eq(organisation_users.import_id, importId),
        isNull(organisation_users.deleted_at),
        isNull(users.password_hash),
        isNull(users.invited_at),
        // A member the file says cancelled is kept as a former member, not asked to set up payment.
        sql`not (${IMPORTED_STATE_TAGS.cancelled} = any(${organisation_users.tags}))`,
      ),
    );
  const mails: Mail[] = [];
  for (const p of people) {
    await t.db.update(users).set({ invited_at: now, should_onboard: true }).where(and(eq(users.id, p.id), isNull(users.invited_at)));
    mails.push(importInviteMail(p.email, p.name, gym.name, inviteUrl(await createLink(t.db, p.id, "invite", now))));
  }
  await t.db
    .update(member_imports)
    .set({ invited_count: sql`${member_imports.invited_count} + ${people.length}` })
    .where(t.where(member_imports, eq(member_imports.id, importId)));
  // Sent by the caller once this is committed: the outbox may need the connection this transaction holds.
  return mails;
}
