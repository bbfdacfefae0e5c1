import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { capitaliseWords } from "../../../domain/names";
import { formatCents } from "../../../domain/money";
import type { StatusColour } from "../../../domain/subscription";
import { COLOUR_CLASSES } from "../members/status-badge";
export { CardAfter, chargeText, ConfirmStep, EffectRow, PreviewButton } from "./effect-parts";
import { useInDialog } from "./in-place";

/**
 * The frame every membership action page shares (issue 12): where it is (the member, then the action), the
 * membership as it is now, the form, and — once previewed — what it will do, with the button that does it.
 */
export interface MembershipSummary {
  label: string;
  colour: StatusColour;
  amount: number;
  frequency: string;
  /** Left out of the answer for staff without money rights (server/core/permissions.ts FIELD_PERMISSIONS). */
  paid_until?: string | null;
  owing?: { total: number; periods: number };
  next_charge?: { day: string; amount: number } | null;
  price: { offering: string; term: string | null };
}

export function ActionPage({
  memberId,
  memberName,
  title,
  view,
  children,
}: {
  memberId: number;
  memberName: string;
  title: string;
  view: MembershipSummary | null;
  children: ReactNode;
}) {
  const dialog = useInDialog();
  if (dialog) {
    return (
      <div className="space-y-5">
        <dialog.Heading>
          {title}: {memberName}
        </dialog.Heading>
        {view ? <NowLine view={view} /> : null}
        {children}
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <Link to={`/members/${memberId}`} className="text-brand-700 underline">
          {memberName}
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">{title}</span>
      </nav>
      <h1 className="text-2xl font-semibold">
        {title}: {memberName}
      </h1>
      {view ? <NowLine view={view} /> : null}
      {children}
    </div>
  );
}

function NowLine({ view }: { view: MembershipSummary }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${COLOUR_CLASSES[view.colour]}`}>{view.label}</span>
      <span>
        {formatCents(view.amount)} {view.frequency.toLowerCase()}
        {/* Paid until the period's end only when nothing is owing: a failed payment leaves the period billed, not paid (issue 32). */}
        {view.paid_until ? (view.owing?.total ? ` · ${formatCents(view.owing.total)} owing for the period to ${formatDay(view.paid_until)}` : ` · paid until ${formatDay(view.paid_until)}`) : ""}
        {view.next_charge ? ` · next charge ${formatCents(view.next_charge.amount)} on ${formatDay(view.next_charge.day)}` : " · no charge to come"}
      </span>
    </p>
  );
}

/** An e-mail as the member will get it, inside an effect: who it goes to, where replies go, its subject and text. */
export function EmailPreview({
  title,
  email,
  sent,
}: {
  title: ReactNode;
  email: { to: string; reply_to: string | null; subject: string; text: string };
  sent: boolean;
}) {
  return (
    <div className="py-2 text-sm">
      <dt className="text-slate-600">
        {title}
        {sent ? "" : " (not sent: the box is not ticked)"}
      </dt>
      <dd className="mt-1 rounded-md border border-slate-200 bg-white p-3">
        <p className="text-xs text-slate-600">
          To {email.to}
          {email.reply_to ? ` · replies to ${email.reply_to}` : ""}
        </p>
        <p className="mt-1 font-semibold">{email.subject}</p>
        <pre className="mt-2 whitespace-pre-wrap font-sans text-slate-800">{email.text}</pre>
      </dd>
    </div>
  );
}

/** A hook: an instant's Auckland date, or a dash. */
export function useWhen() {
  const dates = useDates();
  return (iso: string | null | undefined) => (iso ? dates.date(iso) : "—");
}

export const memberName = (member: { name: string }) => capitaliseWords(member.name);
