import { Link, useFetcher, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { formatCalendarDayAs, hhmmOf, minutesOfDay } from "../../../domain/calendar-day";

/** A calendar entry as the page gets it (GET /api/appointments): an appointment, or a recurring session (id null). */
export interface GridEntry {
  id: number | null;
  series_id: number | null;
  occurrence_day: string | null;
  starts_at: string;
  ends_at: string;
  /** Auckland's calendar day and wall clock ("HH:mm") at its start and end, from the loader (no time zone here). */
  wall: { start_day: string; start: string; end_day: string; end: string };
  trainer: { id: number; name: string; calendar_colour: string };
  member: { id: number; name: string };
  /** A group class the trainer runs (issue 34): shown beside the sessions in the trainer's colour, opening its roster. */
  class?: { id: number; name: string; gym: string; booked: number; capacity: number };
}

const SLOT_PX = 12; // one 15-minute row
const startOf = (e: GridEntry) => minutesOfDay(e.wall.start);
const endOf = (e: GridEntry) => minutesOfDay(e.wall.end);
const sameDay = (e: GridEntry) => e.wall.end_day === e.wall.start_day;
/** Minutes after midnight as 9:00 AM (SPEC §9's 12-hour clock). */
const clock = (minutes: number) => {
  const h = Math.floor(minutes / 60) % 24;
  return `${h % 12 || 12}:${String(minutes % 60).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
};
const hhmm = hhmmOf;
/** 12:00–12:45 PM, or 11:30 AM–12:15 PM across noon: the shortest range that fits a narrow day column. */
const clockRange = (start: number, end: number) => {
  const [from, to] = [clock(start), clock(end)];
  return from.slice(-2) === to.slice(-2) ? `${from.slice(0, -3)}–${to}` : `${from}–${to}`;
};

/**
 * What a block of `minutes` has room for on 12-pixel quarter rows at text-xs (15 px a line): an hour or more takes
 * the time, the member and the trainer on lines of their own; 45 minutes two lines; 30 one; 15 one smaller line.
 */
const blockLayout = (minutes: number): "full" | "two-lines" | "one-line" | "tiny" => (minutes >= 60 ? "full" : minutes >= 45 ? "two-lines" : minutes >= 30 ? "one-line" : "tiny");

/** Each colour as classes (no inline styles under the CSP); the shades match ColourDot's. */
const BLOCK: Record<string, string> = {
  green: "border-green-600 bg-green-50",
  blue: "border-blue-600 bg-blue-50",
  purple: "border-violet-600 bg-violet-50",
  pink: "border-pink-600 bg-pink-50",
  red: "border-red-600 bg-red-50",
  orange: "border-orange-600 bg-orange-50",
  yellow: "border-yellow-600 bg-yellow-50",
  teal: "border-teal-600 bg-teal-50",
  grey: "border-gray-600 bg-gray-50",
};
const COLS = ["grid-cols-1", "grid-cols-2", "grid-cols-3", "grid-cols-4", "grid-cols-5", "grid-cols-6"];
const COL_START = ["col-start-1", "col-start-2", "col-start-3", "col-start-4", "col-start-5", "col-start-6"];

export const entryKey = (e: Pick<GridEntry, "id" | "series_id" | "occurrence_day" | "class">) => (e.class ? `c${e.class.id}` : e.id ? `a${e.id}` : `s${e.series_id}-${e.occurrence_day}`);
export const changeHref = (week: string, e: GridEntry) => (e.id ? `/calendar?week=${week}&edit=${e.id}#change-heading` : `/calendar?week=${week}&occurrence=${e.series_id}:${e.occurrence_day}#change-heading`);

/**
 * Side-by-side lanes for a day's overlapping sessions (greedy: each takes the first lane free at its start). A session
 * that overlaps nothing that day takes the whole width (`col-span-full`): a busy morning of classes side by side must
 * not squeeze the afternoon's lone appointment into a sliver.
 */
function lanes(entries: GridEntry[]): { lane: Map<string, number>; count: number; place: (e: GridEntry) => string } {
  const ends: number[] = [];
  const lane = new Map<string, number>();
  const sorted = [...entries].sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  for (const e of sorted) {
    const start = Date.parse(e.starts_at);
    let i = ends.findIndex((end) => end <= start);
    if (i === -1) i = ends.length < COLS.length ? ends.length : COLS.length - 1;
    ends[i] = Date.parse(e.ends_at);
    lane.set(entryKey(e), i);
  }
  const count = Math.max(1, ends.length);
  const overlaps = (e: GridEntry) => sorted.some((o) => o !== e && Date.parse(o.starts_at) < Date.parse(e.ends_at) && Date.parse(o.ends_at) > Date.parse(e.starts_at));
  const place = (e: GridEntry) => (count === 1 ? "" : overlaps(e) ? COL_START[lane.get(entryKey(e)) ?? 0] : "col-span-full");
  return { lane, count, place };
}

type Drag = { key: string; mode: "move" | "resize"; x: number; y: number; dayIndex: number; moved: boolean; columns: DOMRect[] };
type Preview = { key: string; dayIndex: number; startMin: number; endMin: number };

/**
 * The week as a time grid, Monday to Sunday, each session in its trainer's colour on 15-minute rows (6 AM to 10 PM,
 * or the whole day when a session falls outside). Every session is a link to its change form, so all of it works
 * without JavaScript. With JavaScript: drag a session to move it (to another day too), drag its bottom edge to change
 * its end, click an empty slot to book there. On phones one day shows at a time (`selectedDay`), with links to the others.
 */
export function WeekGrid({ days, entries, today, week, selectedDay, slotHref }: { days: string[]; entries: GridEntry[]; today: string; week: string; selectedDay: string; slotHref: (day: string, time: string) => string }) {
  const fetcher = useFetcher<{ message?: string; errors?: Record<string, string[]> }>();
  const navigate = useNavigate();
  const drag = useRef<Drag | null>(null);
  const suppressClick = useRef(false);
  const [preview, setPreviewState] = useState<Preview | null>(null);
  const previewRef = useRef<Preview | null>(null);
  const setPreview = (p: Preview | null) => {
    previewRef.current = p;
    setPreviewState(p);
  };
  const pending = fetcher.state !== "idle";
  // Once the move is saved (the page reloads its week) or refused (the session goes back), the preview is done.
  useEffect(() => {
    if (fetcher.state === "idle") setPreview(null);
  }, [fetcher.state]);

  const whole = entries.some((e) => startOf(e) < 6 * 60 || endOf(e) > 22 * 60 || !sameDay(e));
  const firstMin = whole ? 0 : 6 * 60;
  const rows = whole ? 96 : 64;
  const placed = (startMin: number, endMin: number) => {
    const start = Math.max(0, Math.floor((startMin - firstMin) / 15));
    const span = Math.max(1, Math.min(rows - start, Math.ceil((endMin - firstMin) / 15) - start));
    return `row-start-${start + 1} row-span-${span}`;
  };

  const byKey = new Map(entries.map((e) => [entryKey(e), e]));
  const shown = (e: GridEntry) => {
    const p = preview?.key === entryKey(e) ? preview : null;
    return p ?? { key: entryKey(e), dayIndex: days.indexOf(e.wall.start_day), startMin: startOf(e), endMin: sameDay(e) ? endOf(e) : 24 * 60 };
  };

  function begin(ev: ReactPointerEvent, e: GridEntry, mode: Drag["mode"]) {
    if (ev.button !== 0 || pending) return;
    const grid = (ev.currentTarget as HTMLElement).closest("[data-week-grid]");
    const columns = [...(grid?.querySelectorAll("[data-day-column]") ?? [])].map((c) => c.getBoundingClientRect());
    drag.current = { key: entryKey(e), mode, x: ev.clientX, y: ev.clientY, dayIndex: shown(e).dayIndex, moved: false, columns };
    if (mode === "resize") ev.stopPropagation();
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end, { once: true });
  }

  function move(ev: PointerEvent) {
    const d = drag.current;
    if (!d) return;
    if (!d.moved && Math.abs(ev.clientX - d.x) + Math.abs(ev.clientY - d.y) < 5) return;
    d.moved = true;
    const e = byKey.get(d.key)!;
    const base = { startMin: startOf(e), endMin: sameDay(e) ? endOf(e) : 24 * 60 };
    const delta = Math.round((ev.clientY - d.y) / SLOT_PX) * 15;
    if (d.mode === "resize") {
      setPreview({ key: d.key, dayIndex: d.dayIndex, startMin: base.startMin, endMin: Math.min(24 * 60, Math.max(base.startMin + 15, base.endMin + delta)) });
      return;
    }
    const over = d.columns.findIndex((r) => ev.clientX >= r.left && ev.clientX < r.right);
    const length = base.endMin - base.startMin;
    const startMin = Math.min(24 * 60 - length, Math.max(0, base.startMin + delta));
    setPreview({ key: d.key, dayIndex: over === -1 ? d.dayIndex : over, startMin, endMin: startMin + length });
  }

  function end() {
    window.removeEventListener("pointermove", move);
    const d = drag.current;
    drag.current = null;
    if (!d?.moved) return;
    // The click that ends a drag is not a click on the session; one that never comes must not swallow the next.
    suppressClick.current = true;
    setTimeout(() => (suppressClick.current = false), 0);
    const p = previewRef.current;
    const e = p && byKey.get(p.key);
    if (p && e && (p.dayIndex !== days.indexOf(e.wall.start_day) || p.startMin !== startOf(e) || p.endMin !== endOf(e))) {
        const form = new FormData();
        form.set("intent", e.id ? "move" : "move-occurrence");
        if (e.id) form.set("id", String(e.id));
        else {
          form.set("series_id", String(e.series_id));
          form.set("occurrence_day", String(e.occurrence_day));
        }
        form.set("week", week);
        form.set("day", days[p.dayIndex]);
        form.set("start", hhmm(p.startMin));
        form.set("end", hhmm(Math.min(p.endMin, 23 * 60 + 59)));
        fetcher.submit(form, { method: "post", action: "/calendar" });
    } else setPreview(null);
  }

  const error = fetcher.state === "idle" ? (fetcher.data?.errors?.starts_at?.[0] ?? fetcher.data?.errors?.ends_at?.[0] ?? fetcher.data?.message) : null;

  return (
    <div className="space-y-2">
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <nav aria-label="Days" className="flex gap-1 overflow-x-auto md:hidden">
        {days.map((day) => (
          <Link key={day} to={`/calendar?week=${week}&day=${day}`} aria-current={day === selectedDay ? "date" : undefined} className={`rounded-md px-2 py-1 text-sm ${day === selectedDay ? "bg-brand-700 text-white" : "bg-white ring-1 ring-inset ring-slate-300"}`}>
            {formatCalendarDayAs(day, "EEE d")}
          </Link>
        ))}
      </nav>
      <div data-week-grid className="grid grid-cols-[4.5rem_1fr] rounded-lg border border-slate-200 bg-white md:grid-cols-[4.5rem_repeat(7,minmax(0,1fr))]">
        <div aria-hidden="true" />
        {days.map((day) => (
          <h2 key={day} id={`day-${day}`} className={`border-b border-l border-slate-200 p-2 text-center text-sm font-semibold ${day === selectedDay ? "" : "hidden md:block"} ${day === today ? "text-brand-700" : ""}`}>
            {formatCalendarDayAs(day, "EEE d MMM")}
          </h2>
        ))}
        {/* Each hour's label just under its line, the first hour's too (a label centred on the line has no room above the first). */}
        <div aria-hidden="true" data-hour-labels className={`grid ${whole ? "grid-rows-quarters-96" : "grid-rows-quarters-64"} whitespace-nowrap text-right text-xs leading-none text-slate-500`}>
          {Array.from({ length: rows / 4 }, (_, h) => (
            <span key={h} className={`${placed(firstMin + h * 60, firstMin + h * 60 + 60)} pr-1 pt-0.5`}>
              {clock(firstMin + h * 60)}
            </span>
          ))}
        </div>
        {days.map((day, dayIndex) => {
          const mine = entries.filter((e) => shown(e).dayIndex === dayIndex);
          const { count, place } = lanes(mine);
          return (
            <section
              key={day}
              aria-labelledby={`day-${day}`}
              data-day-column
              className={`relative grid ${whole ? "grid-rows-quarters-96" : "grid-rows-quarters-64"} ${COLS[count - 1]} gap-x-0.5 border-l border-slate-200 bg-[linear-gradient(to_bottom,theme(colors.slate.100)_1px,transparent_1px)] bg-[length:100%_48px] ${day === selectedDay ? "" : "hidden md:grid"} ${day === today ? "bg-brand-50/40" : ""}`}
              onClick={(ev) => {
                if (ev.target !== ev.currentTarget) return;
                const y = ev.clientY - ev.currentTarget.getBoundingClientRect().top;
                navigate(slotHref(day, hhmm(Math.min(23 * 60, firstMin + Math.floor(y / SLOT_PX) * 15))));
              }}
            >
              {mine.map((e) => {
                const s = shown(e);
                if (e.class) return <ClassBlock key={entryKey(e)} e={e} c={e.class} label={clockRange(s.startMin, s.endMin)} at={clock(s.startMin)} layout={blockLayout(s.endMin - s.startMin)} place={`${placed(s.startMin, s.endMin)} ${place(e)}`} />;
                const label = clockRange(s.startMin, s.endMin);
                const layout = blockLayout(s.endMin - s.startMin);
                const trainer = `${e.trainer.name}${e.series_id ? " · weekly" : ""}`;
                return (
                  <Link
                    key={entryKey(e)}
                    to={changeHref(week, e)}
                    draggable={false}
                    aria-label={`Change ${e.member.name}'s session at ${clock(s.startMin)} with ${e.trainer.name}${e.series_id ? " (weekly)" : ""}`}
                    title={`${clock(s.startMin)}–${clock(s.endMin)}: ${e.member.name} with ${trainer}`}
                    onPointerDown={(ev) => begin(ev, e, "move")}
                    onClick={(ev) => {
                      if (suppressClick.current) {
                        ev.preventDefault();
                        suppressClick.current = false;
                      }
                    }}
                    className={`${placed(s.startMin, s.endMin)} ${place(e)} relative z-10 m-px select-none md:touch-none overflow-hidden rounded border-l-4 px-1 ${layout === "tiny" ? "text-[10px] leading-none" : "text-xs leading-tight"} text-slate-900 hover:ring-2 hover:ring-brand-500 ${BLOCK[e.trainer.calendar_colour] ?? BLOCK.green} ${preview?.key === entryKey(e) ? "opacity-80 ring-2 ring-brand-500" : ""}`}
                  >
                    {layout === "full" ? (
                      <>
                        <span className="block truncate font-semibold">{label}</span>
                        <span className="block truncate">{e.member.name}</span>
                        <span className="block truncate text-slate-600">{trainer}</span>
                      </>
                    ) : layout === "two-lines" ? (
                      <>
                        <span className="block truncate font-semibold">{label}</span>
                        <span className="block truncate">
                          {e.member.name} <span className="text-slate-600">· {trainer}</span>
                        </span>
                      </>
                    ) : (
                      <span className="block truncate">
                        {/* The start without AM or PM, which the hour beside it says: the member's name needs the room. */}
                        <span className="font-semibold">{clock(s.startMin).slice(0, -3)}</span> {e.member.name} <span className="text-slate-600">· {trainer}</span>
                      </span>
                    )}
                    <span aria-hidden="true" onPointerDown={(ev) => begin(ev, e, "resize")} className="absolute inset-x-0 bottom-0 h-2 cursor-ns-resize" />
                  </Link>
                );
              })}
            </section>
          );
        })}
      </div>
    </div>
  );
}

/** A class on the grid: the trainer's colour with a dashed edge (not a one-to-one session), its places taken; it opens the class's roster and is not dragged. */
function ClassBlock({ e, c, label, at, layout, place }: { e: GridEntry; c: NonNullable<GridEntry["class"]>; label: string; at: string; layout: ReturnType<typeof blockLayout>; place: string }) {
  const places = `${c.booked}/${c.capacity}`;
  return (
    <Link
      to={`/classes/${c.id}`}
      draggable={false}
      aria-label={`${c.name} class at ${at} with ${e.trainer.name}, ${places} booked`}
      title={`${label}: ${c.name} class with ${e.trainer.name} at ${c.gym}, ${places} booked`}
      className={`${place} relative z-10 m-px select-none overflow-hidden rounded border border-l-4 border-dashed px-1 ${layout === "tiny" ? "text-[10px] leading-none" : "text-xs leading-tight"} text-slate-900 hover:ring-2 hover:ring-brand-500 ${BLOCK[e.trainer.calendar_colour] ?? BLOCK.green}`}
    >
      {layout === "full" || layout === "two-lines" ? (
        <>
          <span className="block truncate font-semibold">{label}</span>
          <span className="block truncate">
            {c.name} class <span className="text-slate-600">· {places}</span>
          </span>
          {layout === "full" ? <span className="block truncate text-slate-600">{e.trainer.name}</span> : null}
        </>
      ) : (
        <span className="block truncate">
          <span className="font-semibold">{at.slice(0, -3)}</span> {c.name} class <span className="text-slate-600">· {places}</span>
        </span>
      )}
    </Link>
  );
}
