import { Form, useLocation } from "@remix-run/react";
import { lazy, Suspense, useRef } from "react";
import { useWanted } from "./lazy-widget";

import type { SwitcherProps } from "./switcher-props";
export type { SwitcherProps };

// Headless UI's Menu is a chunk of its own, fetched when the switcher is about to be used (decision 0052).
const loadMenu = () => import("./switcher-menu");
const SwitcherMenu = lazy(loadMenu);

/**
 * A "choose one" switcher (organisation, gym). Without JavaScript, until the page hydrates, and until a pointer or
 * focus comes to it, it is a select and a button in a form; then Headless UI's Menu (switcher-menu.tsx).
 */
export function Switcher(props: SwitcherProps) {
  const { label, action, name, options, currentId } = props;
  const { pathname, search } = useLocation();
  const back = <input type="hidden" name="redirectTo" value={pathname + search} />;
  const form = useRef<HTMLFormElement>(null);
  const { wanted, triggers } = useWanted(form, loadMenu);

  const plain = (
    // The select is as wide as its longest name: a gym's name is never cut off.
    <Form ref={form} method="post" action={action} className="flex max-w-full items-center gap-2" {...triggers}>
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
  // One boundary around both, so that while the chunk comes the plain form stays as it is (the transition keeps it).
  return (
    <Suspense fallback={plain}>{wanted ? <SwitcherMenu {...props} back={back} focus={!!form.current?.contains(document.activeElement)} /> : plain}</Suspense>
  );
}
