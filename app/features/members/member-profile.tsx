import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import type { MemberDetail } from "./detail-types";

function Item({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-sm text-slate-900 sm:col-span-2">{value || value === 0 ? value : <span className="text-slate-500">Not given</span>}</dd>
    </div>
  );
}

const yesNo = (v: boolean) => (v ? "Yes" : "No");

/** Every member field of SPEC §3 that staff read. */
export function MemberProfile({ member: m }: { member: MemberDetail }) {
  const dates = useDates();
  const address = [m.address, m.suburb, m.city, m.post_code].filter(Boolean).join(", ");
  const emergency = [m.emergency_contact_name, m.emergency_contact_relationship && `(${m.emergency_contact_relationship})`, m.emergency_contact_number].filter(Boolean).join(" ");
  return (
    <section aria-labelledby="profile-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="profile-heading" className="font-semibold">
        Profile
      </h2>
      <dl className="mt-2 divide-y divide-slate-100">
        <Item label="E-mail" value={<a href={`mailto:${m.email}`} className="text-brand-700 underline">{m.email}</a>} />
        <Item label="Mobile" value={m.mobile_number ? <a href={`tel:${m.mobile_number.replace(/\s/g, "")}`} className="text-brand-700 underline">{m.mobile_number}</a> : null} />
        <Item label="Date of birth" value={m.dob ? formatDay(m.dob) : null} />
        <Item label="Address" value={address} />
        <Item label="Emergency contact" value={emergency} />
        <Item label="Home gym" value={m.home_gym?.name} />
        <Item label="Tags" value={m.tags.length ? m.tags.join(", ") : null} />
        <Item label="Notes" value={m.notes ? <span className="whitespace-pre-line">{m.notes}</span> : null} />
        <Item label="Gym experience" value={m.confidence_and_experience_label} />
        <Item label="Heard about us" value={m.hear_about_us_label} />
        <Item label="E-mail notifications" value={yesNo(m.email_notifications)} />
        <Item label="Push notifications" value={yesNo(m.push_notifications)} />
        <Item label="Payment reminders" value={yesNo(m.payment_reminders)} />
        <Item label="Visits" value={`${m.visits_count}${m.last_visit_at ? `, last on ${dates.date(m.last_visit_at)}` : ""}`} />
        <Item label="Joined" value={m.joined_at ? dates.date(m.joined_at) : null} />
        <Item label="Returning member" value={yesNo(m.is_returning_member)} />
      </dl>
    </section>
  );
}
