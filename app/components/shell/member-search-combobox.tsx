import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from "@headlessui/react";
import { Form, useNavigate } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { AnswerOf } from "../../lib/api-contract";
import { Icon } from "./icons";
import { applyHandoff, readHandoff } from "./lazy-widget";
import { SEARCH_DEBOUNCE_MS, type MemberHit, type MemberSearchProps } from "./member-search-rules";

/**
 * The global search once wanted (member-search.tsx loads this module on demand, decision 0052): Headless UI's Combobox
 * over the GET form: debounced POST /api/search, a spinner while loading, results only when not loading, a query
 * exists and the user is not typing. In member-picker mode a hit is handed to `onSelect` instead of opened.
 * `pageQuery` is the query of the results page being shown, if any: the box keeps it there. `plainBox` is the plain
 * box this replaces: what was typed in it, and its focus and caret, carry over.
 */
export default function MemberSearchCombobox({
  onSelect,
  pageQuery = "",
  id = "member-search",
  label,
  plainBox,
}: MemberSearchProps & { plainBox: RefObject<HTMLInputElement> }) {
  const navigate = useNavigate();
  // Read in the first render, while the plain box is still in the page.
  const [handoff] = useState(() => readHandoff(plainBox.current));
  const [query, setQuery] = useState(handoff?.value ?? pageQuery);
  const [results, setResults] = useState<MemberHit[]>([]);
  const [searched, setSearched] = useState("");
  const [typing, setTyping] = useState(false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const inFlight = useRef<AbortController>();
  /** Whether a hit was reached with the arrow keys since the last keystroke: only then does Enter open it. */
  const arrowed = useRef(false);

  const pageQueryRef = useRef(pageQuery);
  /** Drops the results; the box goes back to what the page shows (the results page's query, or nothing). */
  const clear = (to = pageQueryRef.current) => {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    setQuery(to);
    setResults([]);
    setSearched("");
    setTyping(false);
    setLoading(false);
  };
  // A navigation to or from the results page (or to other results) shows that page's query.
  useEffect(() => {
    if (pageQueryRef.current === pageQuery) return;
    pageQueryRef.current = pageQuery;
    clear(pageQuery);
  }, [pageQuery]);

  useEffect(() => {
    const outside = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) clear();
    };
    document.addEventListener("mousedown", outside);
    return () => {
      document.removeEventListener("mousedown", outside);
      clearTimeout(timer.current);
      inFlight.current?.abort();
    };
  }, []);

  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => applyHandoff(input.current, handoff), [handoff]);
  // Text typed in the plain box is searched as if typed here.
  useEffect(() => {
    if (handoff && handoff.value !== pageQuery) onChange(handoff.value);
    // Only on the swap.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function search(q: string) {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    setFailed(false);
    try {
      const res = await fetch("/api/search", {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ query: q }),
        signal: controller.signal,
      });
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { data: AnswerOf<"post", "/search"> };
      setResults(body.data.data);
      setSearched(q);
    } catch (err) {
      if ((err as Error).name === "AbortError") return;
      setFailed(true);
      setResults([]);
    } finally {
      if (inFlight.current === controller) setLoading(false);
    }
  }

  function onChange(value: string) {
    arrowed.current = false;
    setQuery(value);
    clearTimeout(timer.current);
    if (!value.trim()) {
      // An empty query clears the results and makes no call.
      inFlight.current?.abort();
      setResults([]);
      setSearched("");
      setTyping(false);
      setLoading(false);
      return;
    }
    setTyping(true);
    timer.current = setTimeout(() => {
      setTyping(false);
      void search(value.trim());
    }, SEARCH_DEBOUNCE_MS);
  }

  function choose(hit: MemberHit) {
    clear();
    if (onSelect) onSelect(hit);
    else navigate(`/members/${hit.id}`);
  }

  const showResults = !loading && !typing && query.trim() !== "" && searched !== "";
  const placeholder = onSelect ? "Search for a member" : "Search";
  return (
    <div ref={box} className="relative w-full max-w-md">
      {/* Headless UI's Combobox over the GET form: the form is what works before hydration and without JavaScript. */}
      <Combobox value={null as MemberHit | null} onChange={(hit) => hit && choose(hit)}>
        {({ activeIndex }) => (
          <>
            <Form
              method="get"
              action="/search"
              role="search"
              onSubmit={(e) => {
                if (onSelect) e.preventDefault();
                // The results page lists the hits: no dropdown over it, and no debounced call still to come.
                else clear(query);
              }}
            >
              <label htmlFor={id} className={label ? "mb-2 block text-sm font-medium text-slate-800" : "sr-only"}>
                {label ?? placeholder}
              </label>
              <div className="relative">
                <span className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3 text-slate-500">
                  <Icon name="search" className="h-4 w-4" />
                </span>
                <ComboboxInput
                  ref={input}
                  id={id}
                  name="q"
                  type="search"
                  autoComplete="off"
                  placeholder={placeholder}
                  value={query}
                  displayValue={() => query}
                  onChange={(e) => onChange(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key.startsWith("Arrow") || e.key === "Home" || e.key === "End") arrowed.current = true;
                    // Enter with no hit chosen by the arrows searches (the results page), as before Headless UI, which
                    // would open the first hit it marks active itself, or only close the list.
                    if (e.key === "Enter" && (activeIndex === null || !arrowed.current) && !e.nativeEvent.isComposing) {
                      e.preventDefault();
                      e.currentTarget.form?.requestSubmit();
                    } else if (e.key === "Escape") clear();
                  }}
                  aria-invalid={failed || undefined}
                  aria-describedby={failed ? `${id}-error` : undefined}
                  className={`block w-full rounded-md border bg-white py-1.5 pl-9 pr-9 text-sm focus:outline-none focus:ring-2 ${
                    failed ? "border-red-500 focus:ring-red-300" : "border-slate-300 focus:border-brand-500 focus:ring-brand-100"
                  }`}
                />
                {loading ? (
                  <span className="absolute inset-y-0 right-0 flex items-center pr-3" role="status" aria-label="Searching">
                    <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" data-testid="search-spinner" />
                  </span>
                ) : null}
              </div>
            </Form>
            {failed ? (
              <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
                Search failed. Try again.
              </p>
            ) : null}
            {showResults ? (
              <div className="absolute z-40 mt-1 w-full overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg" aria-live="polite">
                {results.length === 0 ? (
                  <p className="px-3 py-2 text-sm text-slate-600">No results found for &quot;{searched}&quot;</p>
                ) : (
                  // Shown by this component's own rule (above), not by the combobox's open state (`static`); the page
                  // stays usable around it (not `modal`): a click on it clears the search.
                  <ComboboxOptions static modal={false} aria-label="Members found" className="max-h-80 overflow-y-auto py-1 focus:outline-none">
                    {results.map((hit) => (
                      <ComboboxOption
                        key={hit.id}
                        value={hit}
                        className="block w-full cursor-pointer px-3 py-2 text-left hover:bg-brand-50 data-[focus]:bg-brand-50"
                      >
                        <span className="block text-sm font-medium text-slate-900">{hit.name}</span>
                        <span className="block text-xs text-slate-600">{hit.email}</span>
                      </ComboboxOption>
                    ))}
                  </ComboboxOptions>
                )}
              </div>
            ) : null}
          </>
        )}
      </Combobox>
    </div>
  );
}
