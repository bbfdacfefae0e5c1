import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { SwitchMenu } from "./switch-menu";

/**
 * A "choose one" switcher (organisation, gym). Without JavaScript it is a select and a button in a form;
 * once hydrated it becomes a keyboard-accessible menu button posting the same form.
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

  if (!hydrated) {
    return (
      // The select is as wide as its longest name: a gym's name is never cut off.
      <Form method="post" action={action} className="flex max-w-full items-center gap-2">
        {back}
        <label className="sr-only" htmlFor={`${name}-select`}>
          {label}
        </label>
        <select id={`${name}-select`} name={name} defaultValue={currentId ?? undefined} className="max-w-full rounded-md border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm">
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
      <SwitchMenu label={label} name={name} options={options} currentId={currentId} disabled={busy} listClassName={listClassName} />
    </Form>
  );
}
