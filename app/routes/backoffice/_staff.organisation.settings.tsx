import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ORGANISATION_PRICE_FREQUENCIES } from "../../../domain/billing";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { OFFERING_TYPE_LABELS, perFrequency, SWITCH_LABELS } from "../../../domain/offering";
import { PERIOD_UNIT_LABELS, PERIOD_UNITS } from "../../../domain/organisation";
import { orRefusal } from "../../features/members/member-route.server";
import { CopyButton } from "../../components/copy-button";
import { offeringsRoute } from "../../features/offerings/offering-route.server";
import { SelectSetting, SettingsSection, SwitchSetting, TextAreaSetting, TextSetting } from "../../components/settings-sections";
import { CallTable } from "../../features/webhooks/calls";
import { pageQuery } from "../../lib/params.server";
import { formOn, formText, settingsAction, type Section } from "../../lib/settings-action.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Organisation settings · Gym Membership" }];

/** /organisation/settings (organisation admins only: the layout sends anyone else to /dashboard). */
export async function loader(args: LoaderFunctionArgs) {
  const api = offeringsRoute(args);
  const me = await orRefusal(args.request, api.get("/me"));
  const id = me.current_organisation!.id;
  const hooksPage = pageQuery(new URL(args.request.url), "hooks");
  const [organisation, links, hooks, prices, classRules] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/organisations/:id", { params: { id } }),
      api.get("/organisations/:id/age-bypass-links", { params: { id } }),
      api.get("/organisations/:id/akahu-webhooks", { params: { id }, query: { page: hooksPage } }),
      api.get("/organisations/:id/prices", { params: { id } }),
      api.get("/organisations/:id/class-booking-rules", { params: { id } }),
    ]),
  );
  return withDateTexts({ organisation, links: links.data, hooks, prices: prices.data, classRules });
}

const text = formText;
const on = formOn;

const SECTIONS: Record<string, Section<number>> = {
  name: { save: (api, id, f) => api.put("/organisations/:id", { params: { id }, body: { name: text(f, "name") } }), summary: "Name saved", fields: ["name"] },
  grace: {
    save: (api, id, f) => api.put("/organisations/:id/grace-period", { params: { id }, body: { period: text(f, "period"), unit: text(f, "unit") } }),
    summary: "Failed-payment grace period saved",
    fields: ["period", "unit"],
  },
  "term-grace": {
    save: (api, id, f) => api.put("/organisations/:id/term-membership-grace-period", { params: { id }, body: { period: text(f, "period"), unit: text(f, "unit") } }),
    summary: "Term-membership grace period saved",
    fields: ["period", "unit"],
  },
  "minimum-age": {
    save: (api, id, f) => api.put("/organisations/:id/minimum-age", { params: { id }, body: { minimum_age: text(f, "minimum_age") } }),
    summary: "Minimum age saved",
    fields: ["minimum_age"],
  },
  permissions: {
    save: (api, id, f) => api.put("/organisations/:id/offering-permissions", { params: { id }, body: { enable_offerings: on(f, "enable_offerings"), non_stop: on(f, "non_stop"), limited_access: on(f, "limited_access") } }),
    summary: "Offering types saved",
    fields: ["enable_offerings", "non_stop", "limited_access"],
  },
  frequencies: {
    save: (api, id, f) => api.put("/organisations/:id/price-frequencies", { params: { id }, body: Object.fromEntries(ORGANISATION_PRICE_FREQUENCIES.map((k) => [k, on(f, k)])) }),
    summary: "Price frequencies saved",
    fields: [...ORGANISATION_PRICE_FREQUENCIES],
  },
  "member-mail": {
    save: (api, id, f) => api.put("/organisations/:id/member-mail", { params: { id }, body: { payment_receipts: on(f, "payment_receipts"), signup_reminders: on(f, "signup_reminders") } }),
    summary: "Member e-mails saved",
    fields: ["payment_receipts", "signup_reminders"],
  },
  "self-service": {
    save: (api, id, f) =>
      api.put("/organisations/:id/member-self-service", {
        params: { id },
        body: {
          members_may_pause: on(f, "members_may_pause"),
          member_pause_days_per_year: text(f, "member_pause_days_per_year"),
          members_may_cancel: on(f, "members_may_cancel"),
          member_cancel_notice_days: text(f, "member_cancel_notice_days"),
        },
      }),
    summary: "What members may do saved",
    fields: ["members_may_pause", "member_pause_days_per_year", "members_may_cancel", "member_cancel_notice_days"],
  },
  terms: {
    save: (api, id, f) => api.put("/organisations/:id/membership-terms", { params: { id }, body: { text: text(f, "text"), url: text(f, "url") } }),
    summary: "Membership terms saved",
    fields: ["text", "url"],
  },
  // Group classes (issue 34): how members book.
  "class-rules": {
    save: (api, id, f) =>
      api.put("/organisations/:id/class-booking-rules", {
        params: { id },
        body: { class_booking_window_days: text(f, "class_booking_window_days"), class_cancel_cutoff_minutes: text(f, "class_cancel_cutoff_minutes"), class_max_bookings: text(f, "class_max_bookings") },
      }),
    summary: "Class booking rules saved",
    fields: ["class_booking_window_days", "class_cancel_cutoff_minutes", "class_max_bookings"],
  },
  "create-link": { save: (api, id) => api.post("/organisations/:id/age-bypass-links", { params: { id } }), summary: "Age-bypass link created", fields: [] },
  "revoke-link": { save: (api, id, f) => api.delete("/organisations/:id/age-bypass-links/:linkId", { params: { id, linkId: Number(f.get("link_id")) || 0 } }), summary: "Link revoked", fields: [] },
};

export async function action(args: ActionFunctionArgs) {
  const api = offeringsRoute(args);
  const me = await orRefusal(args.request, api.get("/me"));
  return settingsAction(args.request, api, me.current_organisation!.id, SECTIONS, "/organisation/settings");
}

export default function OrganisationSettings() {
  const dates = useDates();
  const { organisation: o, links, hooks, prices, classRules } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const units = PERIOD_UNITS.map((u) => ({ value: u, label: PERIOD_UNIT_LABELS[u] }));
  const hookPages = Math.max(1, Math.ceil(hooks.meta.total / hooks.meta.per_page));
  return (
    <div className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold">Organisation settings</h1>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <SettingsSection id="name" title="Name" intent="name" result={result}>
          <TextSetting result={result} intent="name" name="name" label="Organisation name" value={o.name} />
        </SettingsSection>
        <SettingsSection id="grace" title="Failed-payment grace period" intent="grace" result={result} hint="How long a member whose payment failed keeps access while it is retried.">
          <div className="grid grid-cols-2 gap-3">
            <TextSetting result={result} intent="grace" name="period" label="Period" type="number" value={String(o.grace_period.failed_payment_grace_period)} />
            <SelectSetting result={result} intent="grace" name="unit" label="Unit" value={o.grace_period.failed_payment_grace_period_unit} options={units} />
          </div>
        </SettingsSection>
        <SettingsSection id="term-grace" title="Term-membership grace period" intent="term-grace" result={result} hint="How long a term membership's member may fall behind before the break fee applies.">
          <div className="grid grid-cols-2 gap-3">
            <TextSetting result={result} intent="term-grace" name="period" label="Period" type="number" value={String(o.term_grace_period.term_membership_grace_period)} />
            <SelectSetting result={result} intent="term-grace" name="unit" label="Unit" value={o.term_grace_period.term_membership_grace_period_unit} options={units} />
          </div>
        </SettingsSection>
        <SettingsSection id="minimum-age" title="Joining online" intent="minimum-age" result={result} hint="The youngest a person may be to join on the sign-up app by themselves; an age-bypass link lets a parent or guardian sign someone younger up. 0 means no minimum.">
          <TextSetting result={result} intent="minimum-age" name="minimum_age" label="Minimum age (years)" type="number" value={String(o.minimum_age)} />
        </SettingsSection>
        <SettingsSection id="member-mail" title="Member e-mails" intent="member-mail" result={result} hint="E-mails members get besides the ones they need (sign-in codes, failed payments, changes to their membership). Members can turn e-mails off themselves.">
          <SwitchSetting result={result} intent="member-mail" name="payment_receipts" label="A receipt for each successful payment" on={o.payment_receipts} />
          <SwitchSetting result={result} intent="member-mail" name="signup_reminders" label="One reminder, a day later, to people who stopped part way through joining" on={o.signup_reminders} />
        </SettingsSection>
        <SettingsSection
          id="self-service"
          title="What members may do themselves"
          intent="self-service"
          result={result}
          hint="On their membership page on the sign-up app, with the same preview staff see. A term that costs a break fee to leave is always the gym's to cancel."
        >
          <SwitchSetting result={result} intent="self-service" name="members_may_pause" label="Members may pause their membership" on={o.member_self_service.members_may_pause} />
          <TextSetting result={result} intent="self-service" name="member_pause_days_per_year" label="Pause days a member may take in any twelve months" type="number" value={String(o.member_self_service.member_pause_days_per_year)} />
          <SwitchSetting result={result} intent="self-service" name="members_may_cancel" label="Members may cancel their membership" on={o.member_self_service.members_may_cancel} />
          <TextSetting result={result} intent="self-service" name="member_cancel_notice_days" label="Notice a member gives to cancel (days; 0: at the end of the paid period)" type="number" value={String(o.member_self_service.member_cancel_notice_days)} />
        </SettingsSection>
        <SettingsSection id="terms" title="Membership terms" intent="terms" result={result} hint="What members accept when they join: your own words, shown on the sign-up app, or a link to your own page, or both. What a member accepted is kept with their membership.">
          <TextAreaSetting result={result} intent="terms" name="text" label="Terms" value={o.membership_terms.text ?? ""} />
          <TextSetting result={result} intent="terms" name="url" label="Or a link to them (https://…)" type="url" value={o.membership_terms.url ?? ""} />
        </SettingsSection>
        <SettingsSection id="permissions" title="Offering types" intent="permissions" result={result} hint="The kinds of offering staff may create.">
          <SwitchSetting result={result} intent="permissions" name="enable_offerings" label="Staff may create and change offerings" on={o.offering_permissions.enable_offerings} />
          <SwitchSetting result={result} intent="permissions" name="non_stop" label={OFFERING_TYPE_LABELS["24_7"]} on={o.offering_permissions.non_stop} />
          <SwitchSetting result={result} intent="permissions" name="limited_access" label={OFFERING_TYPE_LABELS.limited_access} on={o.offering_permissions.limited_access} />
        </SettingsSection>
        <SettingsSection id="frequencies" title="Price frequencies" intent="frequencies" result={result} hint="How often new prices may bill. Paid-in-full (PIF) prices are always available.">
          <div className="grid grid-cols-2 gap-2">
            {ORGANISATION_PRICE_FREQUENCIES.map((f) => (
              <SwitchSetting key={f} result={result} intent="frequencies" name={f} label={SWITCH_LABELS[f]} on={o.price_frequencies[f]} />
            ))}
          </div>
        </SettingsSection>
        <SettingsSection
          id="class-rules"
          title="Class bookings"
          intent="class-rules"
          result={result}
          hint="How members book group classes: how far ahead booking opens, how late they may cancel (later counts as a late cancellation), and how many classes they may have booked at once."
        >
          <TextSetting result={result} intent="class-rules" name="class_booking_window_days" label="Booking opens (days before the class)" type="number" value={String(classRules.class_booking_window_days)} />
          <TextSetting result={result} intent="class-rules" name="class_cancel_cutoff_minutes" label="Cancel without it counting as late up to (minutes before)" type="number" value={String(classRules.class_cancel_cutoff_minutes)} />
          <TextSetting result={result} intent="class-rules" name="class_max_bookings" label="Upcoming bookings a member may hold at once" type="number" value={String(classRules.class_max_bookings)} />
        </SettingsSection>
        <SettingsSection
          id="age-bypass"
          title="Age-bypass links"
          intent="create-link"
          submit="Create a link"
          result={result}
          hint="A sign-up link that lets someone under the minimum age join on any public price, for a parent or guardian signing a teenager up."
        >
          {links.length === 0 ? <p className="text-sm text-slate-600">No links yet.</p> : null}
        </SettingsSection>
      </div>
      {links.length ? (
        <section aria-label="Age-bypass links" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
          {links.map((l) => (
            <div key={l.id} className="space-y-1 border-t border-slate-100 pt-2 first:border-0 first:pt-0">
              <div className="flex items-center justify-between">
                <p className="text-xs text-slate-600">Made {dates.date(l.created_at)}</p>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-link" />
                  <input type="hidden" name="link_id" value={l.id} />
                  <button type="submit" className="rounded-md border border-red-300 px-2.5 py-1 text-xs font-medium text-red-800 hover:bg-red-50">
                    Revoke
                  </button>
                </Form>
              </div>
              {l.urls.map((u) => (
                <div key={u.url} className="flex flex-wrap items-center gap-2">
                  <span className="w-32 shrink-0 text-xs font-medium">{u.gym}</span>
                  <code className="min-w-0 flex-1 break-all rounded bg-slate-50 px-2 py-1 text-xs">{u.url}</code>
                  <CopyButton text={u.url} label={`Copy the link for ${u.gym}`} />
                </div>
              ))}
            </div>
          ))}
        </section>
      ) : null}

      <section aria-labelledby="akahu-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="akahu-heading" className="font-semibold">
          Akahu webhook deliveries
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          What the open-banking provider sent this organisation, newest first.{" "}
          <Link to="/webhook-calls?provider=akahu" className="text-brand-700 underline">
            Open in webhook calls
          </Link>
        </p>
        <div className="mt-2">{hooks.data.length ? <CallTable calls={hooks.data} /> : <p className="text-sm text-slate-700">None yet.</p>}</div>
        {hookPages > 1 ? (
          <nav aria-label="Akahu delivery pages" className="mt-2 flex gap-3 text-sm">
            {hooks.meta.page > 1 ? <Link to={`?hooks=${hooks.meta.page - 1}`}>Newer</Link> : null}
            <span>
              Page {hooks.meta.page} of {hookPages}
            </span>
            {hooks.meta.page < hookPages ? <Link to={`?hooks=${hooks.meta.page + 1}`}>Older</Link> : null}
          </nav>
        ) : null}
      </section>

      <section aria-labelledby="prices-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="prices-heading" className="font-semibold">
          Every price
        </h2>
        <div className="mt-2 overflow-x-auto">
          <table className="stack-table min-w-full text-sm">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Offering</th>
                <th scope="col" className="py-1 pr-3 font-medium">Price</th>
                <th scope="col" className="py-1 pr-3 font-medium">Term</th>
                <th scope="col" className="py-1 pr-3 font-medium">Joining fee</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">Members</th>
                <th scope="col" className="py-1 font-medium">Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {prices.map((p) => (
                <tr key={p.id}>
                  <td data-label="Offering" data-title="" className="py-1 pr-3 font-medium md:font-normal">
                    <Link to={`/offerings/${p.offering.id}`} className="text-brand-700 hover:underline">
                      {p.offering.name}
                    </Link>
                  </td>
                  <td data-label="Price" className="py-1 pr-3 tabular-nums">
                    {formatCents(p.amount)} {perFrequency(p.billing_frequency)}
                    {p.private ? " · private" : ""}
                  </td>
                  <td data-label="Term" className="py-1 pr-3">{p.formatted_term ?? "—"}</td>
                  <td data-label="Joining fee" className="py-1 pr-3 tabular-nums">{p.joining_fee ? formatCents(p.joining_fee) : "—"}</td>
                  <td data-label="Members" className="py-1 pr-3 tabular-nums md:text-right">{p.subscriptions_count.toLocaleString("en-NZ")}</td>
                  <td data-label="Status" className="py-1">{p.archived_at || p.offering.archived_at ? "Archived" : "On sale"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
