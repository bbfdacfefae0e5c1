import { Link } from "@remix-run/react";

/** The classes section's tabs (issue 34): the week's timetable, the schedules behind it, and the class types. */
const TABS = [
  { key: "timetable", to: "/classes", label: "Timetable" },
  { key: "schedules", to: "/classes/schedules", label: "Schedules" },
  { key: "types", to: "/classes/types", label: "Class types" },
] as const;

export function ClassesNav({ current }: { current: (typeof TABS)[number]["key"] }) {
  return (
    <nav aria-label="Classes" className="flex gap-1 border-b border-slate-200 text-sm">
      {TABS.map((t) => (
        <Link
          key={t.key}
          to={t.to}
          aria-current={t.key === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 ${
            t.key === current ? "border-brand-700 font-semibold text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"
          }`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
