import { Form, Link } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { perFrequency } from "../../../domain/offering";
import { LinkLine } from "../gyms/join-links";
import { CopyButton } from "../../components/copy-button";
import type { OfferingPrice } from "./types";

export type PriceActionResult = { intent: string; priceId?: number; message: string; offerArchive?: boolean } | undefined;

const small = "rounded-md border px-2.5 py-1 text-xs font-medium";

/** One intent button: a form of its own, so it works without JavaScript. */
function Action({ intent, priceId, label, tone = "plain", extra }: { intent: string; priceId: number; label: string; tone?: "plain" | "danger"; extra?: Record<string, string> }) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="price_id" value={priceId} />
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className={`${small} ${tone === "danger" ? "border-red-300 text-red-800 hover:bg-red-50" : "border-slate-300 text-slate-800 hover:bg-slate-50"}`}>
        {label}
      </button>
    </Form>
  );
}

/**
 * An offering's prices with their members, and what may be done with each: archive or restore, delete when no
 * member ever held it (the API refuses otherwise, and the row then offers archiving), and a private price's links.
 */
export function PriceTable({ prices, mayChange, result, confirming }: { prices: OfferingPrice[]; mayChange: boolean; result: PriceActionResult; confirming: number | null }) {
  const dates = useDates();
  if (!prices.length) return <p className="text-sm text-slate-600">No prices yet.</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {prices.map((p) => {
        const said = result?.priceId === p.id ? result : undefined;
        return (
          <li key={p.id} id={`price-${p.id}`} className="space-y-2 py-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <p className="font-medium">
                  {formatCents(p.amount)} {perFrequency(p.billing_frequency)}
                  {p.formatted_term ? <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs">{p.formatted_term}</span> : null}
                  {p.private ? <span className="ml-2 rounded bg-purple-100 px-1.5 py-0.5 text-xs text-purple-900">Private</span> : null}
                  {p.archived_at ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs">Archived {dates.date(p.archived_at)}</span> : null}
                </p>
                <p className="text-sm text-slate-600">
                  {p.joining_fee ? `Joining fee ${formatCents(p.joining_fee)} · ` : "No joining fee · "}
                  {p.subscriptions_count === 1 ? "1 member" : `${p.subscriptions_count.toLocaleString("en-NZ")} members`}
                </p>
              </div>
              {mayChange ? (
                <div className="flex flex-wrap gap-2">
                  {p.archived_at ? <Action intent="restore-price" priceId={p.id} label="Restore" /> : <Action intent="archive-price" priceId={p.id} label="Archive" />}
                  <Link to={`?delete=${p.id}#price-${p.id}`} className={`${small} border-red-300 text-red-800 hover:bg-red-50`}>
                    Delete
                  </Link>
                </div>
              ) : null}
            </div>
            {confirming === p.id && !said ? (
              <div className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                <span>Delete this price? Only a price no member ever held can be deleted, and it cannot be undone.</span>
                <Action intent="delete-price" priceId={p.id} label="Delete price" tone="danger" />
                <Link to="." className="text-sm font-medium text-brand-700 hover:underline">
                  Keep it
                </Link>
              </div>
            ) : null}
            {said ? (
              <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
                <span>{said.message}</span>
                {said.offerArchive && !p.archived_at ? <Action intent="archive-price" priceId={p.id} label="Archive it instead" /> : null}
              </div>
            ) : null}
            {p.private && !p.archived_at ? <PrivateLinks price={p} mayChange={mayChange} /> : null}
            {p.join_urls.length ? <JoinUrls price={p} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** A public price's join links (issue 32): one per open gym it is sold at, to put on a gym's site or a poster. */
function JoinUrls({ price }: { price: OfferingPrice }) {
  const what = `${formatCents(price.amount)} ${perFrequency(price.billing_frequency)}`;
  return (
    <details className="rounded-md border border-slate-200 p-2 text-sm">
      {/* The price is written just above: the summary's visible words stay short, its name says which price. */}
      <summary aria-label={`Join links for ${what}`} className="cursor-pointer font-medium text-slate-800">
        Join links
      </summary>
      <div className="mt-2 space-y-2">
        {price.join_urls.map((u) => (
          <div key={u.url} className="flex flex-wrap items-center gap-2">
            <span className="w-32 shrink-0 text-xs font-medium">{u.gym}</span>
            <div className="min-w-0 flex-1">
              <LinkLine label={`Join link for ${what} at ${u.gym}`} url={u.url} />
            </div>
          </div>
        ))}
      </div>
    </details>
  );
}

/** A private price's sign-up links: an address per gym, each with a copy button (plain, selectable text without JavaScript). */
function PrivateLinks({ price, mayChange }: { price: OfferingPrice; mayChange: boolean }) {
  const dates = useDates();
  return (
    <div className="space-y-2 rounded-md border border-purple-100 bg-purple-50/40 p-3">
      <p className="text-sm font-medium">Private links</p>
      {price.private_links.length === 0 ? <p className="text-sm text-slate-600">No links yet: nobody can join on this price until it has one.</p> : null}
      {price.private_links.map((l) => (
        <div key={l.id} className="space-y-1 border-t border-purple-100 pt-2 first:border-0 first:pt-0">
          <p className="text-xs text-slate-600">
            Made {dates.date(l.created_at)}
            {l.age_bypass ? " · lets people under the minimum age join" : ""}
          </p>
          {l.urls.map((u) => (
            <div key={u.url} className="flex flex-wrap items-center gap-2">
              <span className="w-32 shrink-0 text-xs font-medium">{u.gym}</span>
              <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-xs">{u.url}</code>
              <CopyButton text={u.url} label={`Copy the link for ${u.gym}`} />
            </div>
          ))}
          {mayChange ? <Action intent="revoke-link" priceId={price.id} label="Revoke this link" tone="danger" extra={{ link_id: String(l.id) }} /> : null}
        </div>
      ))}
      {mayChange ? (
        <Form method="post" className="flex flex-wrap items-center gap-3 pt-1">
          <input type="hidden" name="intent" value="create-link" />
          <input type="hidden" name="price_id" value={price.id} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="age_bypass" className="h-4 w-4 rounded border-slate-300" />
            Let people under the minimum age join with it
          </label>
          <button type="submit" className={`${small} border-purple-300 text-purple-900 hover:bg-purple-50`}>
            Create a link
          </button>
        </Form>
      ) : null}
    </div>
  );
}
