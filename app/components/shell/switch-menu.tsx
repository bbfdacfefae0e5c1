import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Icon } from "./icons";

/**
 * A WAI-ARIA menu button (button + role="menu" of submit buttons) for the switchers. Headless UI's Menu
 * would add about 33 KB of gzipped JavaScript to every back-office page, over a quarter of the 120 KB
 * budget (docs/decisions/0002-shell.md), so this small one does the keyboard pattern itself:
 * Enter/Space/ArrowDown open on the first item, ArrowUp on the last; arrows, Home and End move;
 * Escape and Tab close; focus returns to the button.
 */
export function SwitchMenu({
  label,
  name,
  options,
  currentId,
  disabled,
  listClassName = "",
}: {
  label: string;
  name: string;
  options: { id: number; name: string }[];
  currentId: number | null | undefined;
  disabled?: boolean;
  listClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();
  const current = options.find((o) => o.id === currentId);

  useEffect(() => {
    if (open) items.current[active]?.focus();
  }, [open, active]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open]);

  const openAt = (index: number) => {
    setActive((index + options.length) % options.length);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  function onButtonKey(e: KeyboardEvent) {
    if (e.key === "ArrowDown" || e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      openAt(0);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      openAt(options.length - 1);
    }
  }
  function onMenuKey(e: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: options.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      setActive((moves[e.key] + options.length) % options.length);
    } else if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Tab") {
      setOpen(false);
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        aria-label={`${label}: ${current?.name ?? "none"}`}
        disabled={disabled}
        onClick={() => (open ? setOpen(false) : openAt(Math.max(0, options.findIndex((o) => o.id === currentId))))}
        onKeyDown={onButtonKey}
        className="inline-flex max-w-full items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-left text-sm font-medium hover:bg-slate-50 disabled:opacity-60"
      >
        {/* The whole name, wrapping if it must: "Demo Fitness Cent…" could be either of two gyms. */}
        <span className="min-w-0 [overflow-wrap:anywhere]">{current?.name ?? label}</span>
        <Icon name="chevron" className="h-4 w-4 shrink-0" />
      </button>
      <div
        id={`${id}-menu`}
        role="menu"
        aria-labelledby={`${id}-button`}
        hidden={!open}
        onKeyDown={onMenuKey}
        className={`absolute right-0 z-40 mt-1 min-w-[12rem] overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg ${listClassName}`}
      >
        {options.map((o, i) => (
          <button
            key={o.id}
            ref={(el) => {
              items.current[i] = el;
            }}
            type="submit"
            role="menuitem"
            name={name}
            value={o.id}
            tabIndex={-1}
            onMouseEnter={() => setActive(i)}
            onClick={() => setOpen(false)}
            className="block w-full px-3 py-2 text-left text-sm focus:bg-brand-50 focus:text-brand-700 focus:outline-none"
          >
            {o.name}
            {o.id === currentId ? <span className="sr-only"> (current)</span> : null}
          </button>
        ))}
      </div>
    </div>
  );
}
