import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Icon } from "./icons";

/**
 * A "choose one" switcher (organisation, gym). Without JavaScript, and until the page hydrates, it is a select and a
 * button in a form; once hydrated, Headless UI's Menu (a menu button whose items submit the same form).
 */
export function Switcher({
  label,
  action,
  name,
  options,
  currentId,
  listClassName = "",
}: {
  label: string;
  action: string;
  name: string;
  options: { id: number; name: string }[];
  currentId: number | null | undefined;
  listClassName?: string;
}) {
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const back = <input type="hidden" name="redirectTo" value={pathname + search} />;
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const current = options.find((o) => o.id === currentId);

  if (!hydrated) {
    return (
      // The select is as wide as its longest name: a gym's name is never cut off.
      <Form method="post" action={action} className="flex max-w-full items-center gap-2">
        {back}
        <label className="sr-only" htmlFor={`${name}-select`}>
          {label}
        </label>
        <select
          id={`${name}-select`}
          name={name}
          defaultValue={currentId ?? undefined}
          className="max-w-full rounded-md border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm"
        >
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-medium hover:bg-slate-50">
          Switch
        </button>
      </Form>
    );
  }

  return (
    <Form method="post" action={action}>
      {back}
      <Menu as="div" className="relative">
        <MenuButton
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
