import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { capitaliseWords } from "../../../domain/names";
import { formatCents } from "../../../domain/money";
import type { StatusColour } from "../../../domain/subscription";
import { COLOUR_CLASSES } from "../members/status-badge";
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
        {view.paid_until ? ` · paid until ${formatDay(view.paid_until)}` : ""}
        {view.next_charge ? ` · next charge ${formatCents(view.next_charge.amount)} on ${formatDay(view.next_charge.day)}` : " · no charge to come"}
      </span>
    </p>
  );
}

export const chargeText = (c: { day: string; amount: number } | null | undefined) => (c ? `${formatCents(c.amount)} on ${formatDay(c.day)}` : "None");

/** One line of an effect: what it is, before → after. */
export function EffectRow({ label, before, after }: { label: string; before?: ReactNode; after: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-2 text-sm sm:grid-cols-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="sm:col-span-2">
        {before !== undefined ? (
          <>
            <span className="text-slate-500 line-through decoration-slate-400">{before}</span>
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> becomes </span>
          </>
        ) : null}
        <span className="font-medium text-slate-900">{after}</span>
      </dd>
    </div>
  );
}

export function CardAfter({ card }: { card: { label: string; colour: StatusColour; detail: string } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${COLOUR_CLASSES[card.colour]}`}>{card.label}</span>
      <span>{card.detail}</span>
    </span>
  );
}

/**
 * The previewed effect and the button that applies it. The form's values travel with it (`previewed`); a
 * confirmation of other values is previewed again by the server.
 */
export function ConfirmStep({
  previewed,
  title = "What this will do",
  confirm,
  pending,
  children,
}: {
  previewed: string;
  title?: string;
  confirm: string;
  pending: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="effect-heading" className="rounded-lg border border-brand-200 bg-brand-50/40 p-4" data-testid="effect">
      <h2 id="effect-heading" className="font-semibold" tabIndex={-1}>
        {title}
      </h2>
      <dl className="mt-2 divide-y divide-slate-200">{children}</dl>
      <input type="hidden" name="previewed" value={previewed} />
      <button
        type="submit"
        name="intent"
        value="confirm"
        disabled={pending}
        className="mt-4 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
      >
        {confirm}
      </button>
    </section>
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

export function PreviewButton({ pending, children = "Preview" }: { pending: boolean; children?: ReactNode }) {
  return (
    <button
      type="submit"
      name="intent"
      value="preview"
      disabled={pending}
      className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 disabled:opacity-60"
    >
      {children}
    </button>
  );
}

/** A hook: an instant's Auckland date, or a dash. */
export function useWhen() {
  const dates = useDates();
  return (iso: string | null | undefined) => (iso ? dates.date(iso) : "—");
}

export const memberName = (member: { name: string }) => capitaliseWords(member.name);
