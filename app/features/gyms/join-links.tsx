import type { BillingFrequency } from "../../../domain/billing";
import { formatCents } from "../../../domain/money";
import { perFrequency } from "../../../domain/offering";
import { CopyButton } from "../../components/copy-button";

type Join = {
  url: string;
  prices: { id: number; offering: string; amount: number; billing_frequency: BillingFrequency; term: string | null; url: string }[];
};

/**
 * A gym's join links, ready to hand out (issue 32): the link, its QR code (inline SVG drawn by the loader), the plain
 * form to paste into the gym's own site, and a link per price on sale. Every address is selectable text, so it can be
 * copied without JavaScript; with it, a Copy button.
 */
export function JoinLinks({ gymId, name, join, qr, snippet }: { gymId: number; name: string; join: Join | null; qr: string | null; snippet: string | null }) {
  return (
    <section aria-labelledby="gym-join" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="gym-join" className="font-semibold">
        Join links
      </h2>
      {!join ? (
        <p className="text-sm text-slate-700">{name} is archived: it takes no new members, so it has no join link.</p>
      ) : (
        <>
          <div className="flex flex-wrap items-start gap-4">
            {qr ? (
              <a href={`/gyms/${gymId}/qr.svg`} download={`join-${name}.svg`} className="block w-36 shrink-0" title="Download the QR code">
                {/* Drawn on the server by the qrcode package (app/lib/qr.server.ts): markup we made, not user input. */}
                <span className="block" dangerouslySetInnerHTML={{ __html: qr }} />
              </a>
            ) : null}
            <div className="min-w-0 flex-1 space-y-2">
              <p className="text-sm text-slate-700">People who open this link (or scan the code) join at {name} and choose their price.</p>
              <LinkLine label={`Join link for ${name}`} url={join.url} />
              <a href={`/gyms/${gymId}/qr.svg`} download={`join-${name}.svg`} className="inline-block text-sm font-medium text-brand-700 underline">
                Download the QR code (SVG, for print)
              </a>
            </div>
          </div>
          {snippet ? (
            <div className="space-y-1">
              <div className="flex items-center justify-between gap-2">
                <label htmlFor="join-snippet" className="text-sm font-medium text-slate-800">
                  A sign-up form for your own website
                </label>
                <CopyButton text={snippet} label="Copy the sign-up form's HTML" />
              </div>
              <textarea
                id="join-snippet"
                readOnly
                rows={9}
                value={snippet}
                className="block w-full rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs"
              />
            </div>
          ) : null}
          <div className="space-y-2">
            <h3 className="text-sm font-medium text-slate-800">A link per price</h3>
            {join.prices.length === 0 ? (
              <p className="text-sm text-slate-700">Nothing is on sale here yet: add a public price to an offering sold at {name}.</p>
            ) : (
              <ul className="space-y-2">
                {join.prices.map((p) => {
                  const label = `${p.offering}: ${formatCents(p.amount)} ${perFrequency(p.billing_frequency)}${p.term ? `, ${p.term}` : ""}`;
                  return (
                    <li key={p.id} className="space-y-1">
                      <p className="text-sm">{label}</p>
                      <LinkLine label={`Join link for ${label}`} url={p.url} />
                      <a
                        href={`/gyms/${gymId}/qr.svg?price=${p.id}`}
                        download={`join-${name}-${p.id}.svg`}
                        className="inline-block text-xs font-medium text-brand-700 underline"
                      >
                        QR code<span className="sr-only"> for {label}</span>
                      </a>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}

export function LinkLine({ label, url }: { label: string; url: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code aria-label={label} className="min-w-0 flex-1 break-all rounded bg-slate-50 px-2 py-1 text-xs ring-1 ring-inset ring-slate-200">
        {url}
      </code>
      <CopyButton text={url} label={`Copy the ${label.charAt(0).toLowerCase()}${label.slice(1)}`} />
    </div>
  );
}
