import { Form } from "@remix-run/react";
import { lazy, Suspense, useRef } from "react";
import { Icon } from "./icons";
import { useWanted } from "./lazy-widget";
import type { MemberSearchProps } from "./member-search-rules";

export { SEARCH_DEBOUNCE_MS, type MemberHit } from "./member-search-rules";

// Headless UI's Combobox is a chunk of its own, fetched when the search is about to be used (decision 0052).
const loadCombobox = () => import("./member-search-combobox");
const MemberSearchCombobox = lazy(loadCombobox);

/**
 * Global member search. Without JavaScript, until the page hydrates, and until a pointer or focus comes to it, it is a
 * GET form whose results page (/search) lists the hits; then Headless UI's Combobox over that form
 * (member-search-combobox.tsx), which takes over what was typed, and the focus.
 */
export function MemberSearch(props: MemberSearchProps) {
  const { onSelect, pageQuery = "", id = "member-search", label } = props;
  const box = useRef<HTMLInputElement>(null);
  const { wanted, triggers } = useWanted(box, loadCombobox);
  const placeholder = onSelect ? "Search for a member" : "Search";

  const plain = (
    <div className="relative w-full max-w-md">
      {/* A picker's hit is chosen in the combobox, which comes with focus: Enter before it does nothing. */}
      <Form method="get" action="/search" role="search" onSubmit={onSelect ? (e) => e.preventDefault() : undefined}>
        <label htmlFor={id} className={label ? "mb-2 block text-sm font-medium text-slate-800" : "sr-only"}>
          {label ?? placeholder}
        </label>
        <div className="relative">
          <span className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3 text-slate-500">
            <Icon name="search" className="h-4 w-4" />
          </span>
          <input
            ref={box}
            key={pageQuery}
            id={id}
            name="q"
            type="search"
            autoComplete="off"
            placeholder={placeholder}
            defaultValue={pageQuery}
            {...triggers}
            className="block w-full rounded-md border border-slate-300 bg-white py-1.5 pl-9 pr-9 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
          />
        </div>
      </Form>
    </div>
  );
  // One boundary around both, so that while the chunk comes the plain box stays as it is, text and focus included.
  return <Suspense fallback={plain}>{wanted ? <MemberSearchCombobox {...props} plainBox={box} /> : plain}</Suspense>;
}
