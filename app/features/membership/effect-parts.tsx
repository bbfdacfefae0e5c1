import type { ReactNode } from "react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import type { StatusColour } from "../../../domain/subscription";
import { COLOUR_CLASSES } from "../members/status-badge";

/**
 * The parts of a membership action's two steps (issue 12), shared by staff's action pages (./action-page.tsx) and
 * the member's own on the sign-up app (issue 31): one line of an effect, the status card after, the preview button
 * and the step that confirms what was previewed. Plain markup: no form library, no dialog.
 */
export const chargeText = (c: { day: string; amount: number } | null | undefined) => (c ? `${formatCents(c.amount)} on ${formatDay(c.day)}` : "None");

/** One line of an effect: what it is, before → after. */
export function EffectRow({ label, before, after }: { label: string; before?: ReactNode; after: ReactNode }) {
  // What does not change is said once, not struck through and written again (issue 32).
  const changes = before !== undefined && !(isPlain(before) && isPlain(after) && String(before) === String(after));
  return (
    <div className="grid grid-cols-1 gap-1 py-2 text-sm sm:grid-cols-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="sm:col-span-2">
        {changes ? (
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

const isPlain = (v: ReactNode) => typeof v === "string" || typeof v === "number";

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
