import { Link } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import type { AnswerOf } from "../../lib/api-contract";
import { preloadActionDialog } from "./in-place";
import { IN_PLACE } from "./in-place-actions";

export type MembershipView = AnswerOf<"get", "/subscriptions/:id">;
export type MemberEvent = AnswerOf<"get", "/members/:id/events">["data"][number];

const link =
  "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50";

/**
 * What staff can do to the membership now (issue 12): only the actions that apply to it (SPEC §4) and that the
 * user may take, each a page of its own (with JavaScript it opens in place, over the member page). Pauses to come, the
 * debt and a scheduled price change are shown beside them.
 */
export function ManagePanel({ memberId, view, pif, door }: { memberId: number; view: MembershipView | null; pif: boolean; door: boolean }) {
  const a = view?.actions;
  const actions = [
    a?.pause ? { to: "pause", label: "Pause" } : null,
    a?.price_change || a?.remove_price_change ? { to: "price-change", label: a?.remove_price_change ? "Price change" : "Change price" } : null,
    a?.start_now ? { to: "start-now", label: "Start now" } : null,
    a?.manual_payment ? { to: "payment", label: "Take payment" } : null,
    pif ? { to: "pif", label: "Add paid in full" } : null,
    a?.undo_cancel ? { to: "cancel", label: "Undo cancellation" } : a?.cancel ? { to: "cancel", label: "Cancel" } : null,
    door ? { to: "door", label: "Door access" } : null,
  ].filter((x): x is { to: string; label: string } => x !== null);
  const toCome = view?.pauses.filter((p) => !p.over) ?? [];
  return (
    <section aria-labelledby="manage-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="manage-heading" className="font-semibold">
        Manage membership
      </h2>
      {view?.owing && view.owing.periods > 0 ? (
        <p className="mt-2 rounded-md bg-red-50 p-2 text-sm text-red-800">
          {formatCents(view.owing.total)} owing for {view.owing.periods} period{view.owing.periods === 1 ? "" : "s"}.
        </p>
      ) : null}
      {toCome.length ? (
        <ul className="mt-2 space-y-1 text-sm text-slate-700">
          {toCome.map((p) => (
            <li key={p.id}>
              {p.running ? "Paused" : "Pause to come"}: {formatDay(p.start)} until {formatDay(p.end)}
              {p.reason ? ` (${p.reason})` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {view && view.pause_days_credit > 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          Pause credit: {view.pause_days_remaining} of {view.pause_days_credit} days left
        </p>
      ) : null}
      {actions.length ? (
        <nav aria-label="Membership actions" className="mt-3 flex flex-wrap gap-2">
          {actions.map((x) => (
            // The dialog's code is fetched as the link is about to be followed (decision 0052).
            <Link
              key={x.to}
              to={`/members/${memberId}/${x.to}`}
              state={IN_PLACE}
              preventScrollReset
              className={link}
              onPointerEnter={preloadActionDialog}
              onFocus={preloadActionDialog}
              onTouchStart={preloadActionDialog}
            >
              {x.label}
            </Link>
          ))}
        </nav>
      ) : (
        <p className="mt-2 text-sm text-slate-600">Nothing can be changed here now.</p>
      )}
    </section>
  );
}

/** Every action staff took on the member's memberships: who, when, what. */
export function MembershipHistory({ events }: { events: MemberEvent[] }) {
  const dates = useDates();
  return (
    <section aria-labelledby="history-heading" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="history-heading" className="border-b border-slate-200 px-4 py-3 font-semibold">
        Membership history
      </h2>
      {events.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-600">No changes by staff yet.</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {events.map((e) => (
            <li key={e.id} className="px-4 py-2 text-sm">
              <p className="text-slate-900">{e.summary}</p>
              <p className="text-xs text-slate-600">
                {dates.dateTime(e.created_at)} · {e.actor?.name ?? "The system"}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
