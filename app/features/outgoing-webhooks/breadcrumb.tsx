import { Link } from "@remix-run/react";
import { Fragment } from "react";

/** "Developers / Webhooks / …" above the webhook pages: each step a link, the page itself (no `to`) plain. */
export function DevelopersBreadcrumb({ trail }: { trail: { label: string; to?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm [overflow-wrap:anywhere]">
      <Link to="/organisation/developers" className="text-brand-700 hover:underline">
        Developers
      </Link>
      {trail.map((step) => (
        <Fragment key={step.label}>
          <span className="text-slate-500"> / </span>
          {step.to ? (
            <Link to={step.to} className="text-brand-700 hover:underline">
              {step.label}
            </Link>
          ) : (
            <span className="text-slate-700">{step.label}</span>
          )}
        </Fragment>
      ))}
    </nav>
  );
}
