import { Form, Link, useFetcher, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatCents } from "../../../domain/money";
import type { AnswerOf } from "../../lib/api-contract";
import { IN_PLACE_FIELD } from "../../lib/in-place";
import { StatusBadge } from "../members/status-badge";

type Card = AnswerOf<"get", "/check-in/members">["data"][number];
type Answered = AnswerOf<"get", "/check-ins/:id">;
/** The check-in, with the start time of each class it marked attended written by the loader (check-in.server.ts). */
type Result = Omit<Answered, "classes"> & { classes: (Answered["classes"][number] & { time: string })[] };
/** The action's answer to a check-in made with JavaScript (check-in.server.ts). */
type Answer = { result: Result | null; key: string; error: string | null };

/** How long a let-in result stays before the page clears itself for the next person (with JavaScript). */
const CLEAR_AFTER_MS = 8_000;

/**
 * The front desk's check-in (issue 32): find, see, check in. Without JavaScript it is a search form and a form per
 * member; with it, the search answers as staff type and a let-in result clears itself for the next person.
 */
export function CheckInPage({
  gym,
  q: loadedQ,
  found: loadedFound,
  result: loadedResult,
  checkInKey: loadedKey,
}: {
  gym: string | null;
  q: string;
  found: Card[];
  result: Result | null;
  checkInKey: string;
}) {
  // With JavaScript a check-in is answered in place (the action's data, no redirect, nothing else reloaded), so the
  // desk sees the result at once; without it, the form redirects to the result's own address.
  const checker = useFetcher<Answer>({ key: "check-in" });
  const [dismissed, setDismissed] = useState<number | null>(null);
  const answered = checker.data?.result && checker.data.result.visit.id !== dismissed ? checker.data.result : null;
  const result = answered ?? (checker.data ? null : loadedResult);
  const checkInKey = checker.data?.key ?? loadedKey;
  const hydrated = useHydrated();
  // As staff type, the page's own loader answers through a fetcher: the frame around it (who is signed in, the
  // unread count) is not loaded again for every key. Find (or Enter, or no JavaScript) navigates as a form does.
  // A new fetcher for each check-in: what was typed for the last person is gone with them.
  const finder = useFetcher<{ q: string; found: Card[] }>({ key: `check-in-search-${checker.data?.key ?? loadedResult?.visit.id ?? "start"}` });
  const typed = finder.data && finder.state === "idle" ? finder.data : null;
  const q = typed?.q ?? (checker.data ? "" : loadedQ);
  const found = typed?.found ?? (checker.data ? [] : loadedFound);
  const navigate = useNavigate();
  const busy = useNavigation().state === "submitting" || checker.state !== "idle";
  const search = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => {
    if (!result?.visit.successful) return;
    search.current?.focus();
    const id = result.visit.id;
    const clear = setTimeout(() => (answered ? setDismissed(id) : navigate("/check-in", { replace: true })), CLEAR_AFTER_MS);
    return () => clearTimeout(clear);
  }, [result, answered, navigate]);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">Check-in{gym ? ` · ${gym}` : ""}</h1>
        <Link to="/kiosk" className="text-sm font-medium text-brand-700 underline">
          Use this device as the entrance kiosk
        </Link>
      </div>

      {result ? <CheckedIn result={result} /> : null}
      {checker.data?.error ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 font-medium text-red-900">
          Not checked in: {checker.data.error}
        </p>
      ) : null}

      <Form method="get" role="search" className="flex flex-wrap items-end gap-3" aria-label="Find a member to check in">
        <div className="min-w-0 flex-1 space-y-1">
          <label htmlFor="q" className="block text-sm font-medium text-slate-800">
            Find a member
          </label>
          <input
            ref={search}
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            key={checker.data?.key ?? result?.visit.id ?? "search"}
            autoFocus
            autoComplete="off"
            aria-describedby="q-hint"
            onChange={(e) => {
              const text = e.currentTarget.value;
              clearTimeout(timer.current);
              timer.current = setTimeout(() => finder.load(`/check-in?${new URLSearchParams({ q: text })}`), 150);
            }}
            className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
          <p id="q-hint" className="text-xs text-slate-600">
            Name, e-mail, mobile number or member code
          </p>
        </div>
        <button type="submit" className="mb-5 rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50">
          Find
        </button>
      </Form>

      {q.trim() ? (
        found.length ? (
          <ul aria-label="Members found" className="space-y-3">
            {found.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-4">
                <Photo card={m} />
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="font-semibold text-slate-900">
                    {m.name} <span className="font-mono text-sm font-normal text-slate-600">{m.code}</span>
                  </p>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <StatusBadge status={m.membership} />
                    <span>{m.reason}</span>
                  </p>
                  {m.owing ? <p className="text-sm font-medium text-red-800">{formatCents(m.owing)} owing</p> : null}
                </div>
                <checker.Form method="post">
                  {hydrated ? <input type="hidden" name={IN_PLACE_FIELD} value="1" /> : null}
                  <input type="hidden" name="user_id" value={m.id} />
                  <input type="hidden" name="key" value={checkInKey} />
                  <button
                    type="submit"
                    disabled={busy}
                    className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
                  >
                    Check in<span className="sr-only"> {m.name}</span>
                  </button>
                </checker.Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">No member matches “{q}”.</p>
        )
      ) : null}
    </div>
  );
}

function Photo({ card }: { card: Pick<Card, "photo" | "name"> }) {
  return card.photo ? (
    <img src={card.photo} alt="" width={56} height={56} className="h-14 w-14 rounded-full object-cover" />
  ) : (
    <span aria-hidden="true" className="flex h-14 w-14 items-center justify-center rounded-full bg-slate-200 text-lg font-semibold text-slate-700">
      {card.name.slice(0, 1)}
    </span>
  );
}

/** The check-in just made: let in, or refused with the reason and what fixes it. */
function CheckedIn({ result }: { result: Result }) {
  const m = result.member;
  const first = m.name.split(" ")[0];
  if (result.visit.successful)
    return (
      <section role="status" aria-label="Checked in" className="flex items-center gap-4 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900">
        <Photo card={m} />
        <div>
          <p className="text-lg font-semibold">Checked in: {m.name}</p>
          <p className="text-sm">{m.reason}</p>
          {result.classes.length ? (
            <ul aria-label="Classes attended" className="mt-1 text-sm font-medium">
              {result.classes.map((k) => (
                <li key={k.booking_id}>
                  Attending {k.name} at {k.time}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>
    );
  return (
    <section role="alert" aria-label="Not let in" className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      <div className="flex items-center gap-4">
        <Photo card={m} />
        <div>
          <p className="text-lg font-semibold">Not let in: {m.name}</p>
          <p className="text-sm">{result.visit.reason}</p>
          {m.owing ? <p className="text-sm font-medium">{formatCents(m.owing)} owing</p> : null}
        </div>
      </div>
      <ul className="flex flex-wrap gap-3 text-sm">
        {m.owing && m.can.take_payment ? (
          <li>
            <Link to={`/members/${m.id}/payment`} className="font-semibold text-red-900 underline">
              Take the {formatCents(m.owing)} owing
            </Link>
          </li>
        ) : null}
        {m.membership?.state === "paused" && m.can.change ? (
          <li>
            <Link to={`/members/${m.id}/pause`} className="font-semibold text-red-900 underline">
              End {first}&apos;s pause early
            </Link>
          </li>
        ) : null}
        {m.can.open ? (
          <li>
            <Link to={`/members/${m.id}`} className="font-semibold text-red-900 underline">
              Open {first}&apos;s page
            </Link>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
