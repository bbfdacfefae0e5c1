import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { Form, useNavigation } from "@remix-run/react";
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { Icon } from "./icons";
import type { SwitcherProps } from "./switcher-props";

/**
 * The switcher once wanted (switcher.tsx loads this module on demand, decision 0052): Headless UI's Menu, a menu button
 * whose items submit the same form as the plain select. `focus` is whether the plain select had focus when it was
 * swapped for this: the menu button takes it.
 */
export default function SwitcherMenu({
  label,
  action,
  name,
  options,
  currentId,
  listClassName = "",
  back,
  focus,
}: SwitcherProps & { back: ReactNode; focus: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const current = options.find((o) => o.id === currentId);
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (focus) button.current?.focus();
    // Only on the swap: later renders leave focus where the person put it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Form method="post" action={action}>
      {back}
      <Menu as="div" className="relative">
        <MenuButton
          ref={button}
          aria-label={`${label}: ${current?.name ?? "none"}`}
          disabled={busy}
          className="inline-flex max-w-full items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-left text-sm font-medium hover:bg-slate-50 disabled:opacity-60"
        >
          {/* The whole name, wrapping if it must: "Demo Fitness Cent…" could be either of two gyms. */}
          <span className="min-w-0 [overflow-wrap:anywhere]">{current?.name ?? label}</span>
          <Icon name="chevron" className="h-4 w-4 shrink-0" />
        </MenuButton>
        {/* Kept in the page when closed (hidden, not unmounted): the item clicked closes the menu and must still be
            in the form when the browser submits it. */}
        <MenuItems
          unmount={false}
          className={`absolute right-0 z-40 mt-1 min-w-[12rem] overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none ${listClassName}`}
        >
          {options.map((o) => (
            <MenuItem
              key={o.id}
              as="button"
              type="submit"
              name={name}
              value={o.id}
              className="block w-full px-3 py-2 text-left text-sm data-[focus]:bg-brand-50 data-[focus]:text-brand-700"
            >
              {o.name}
              {o.id === currentId ? <span className="sr-only"> (current)</span> : null}
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    </Form>
  );
}
