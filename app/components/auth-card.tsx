import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The frame of the guest pages: product name, a card, and the legal links. */
export function AuthCard({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-12">
      <p className="mb-6 text-xl font-bold tracking-tight text-brand-700">
        <Logo /> Gym Membership
      </p>
      <main className="w-full max-w-md rounded-xl bg-white p-8 shadow">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {intro ? <div className="mt-2 text-sm text-slate-600">{intro}</div> : null}
        <div className="mt-6">{children}</div>
      </main>
      {footer ? <div className="mt-6 text-sm text-slate-600">{footer}</div> : null}
      <nav aria-label="Legal" className="mt-8 flex gap-4 text-xs text-slate-600">
        <Link to="/legal/privacy-policy" className="underline">
          Privacy policy
        </Link>
        <Link to="/contact-us" className="underline">
          Contact us
        </Link>
      </nav>
    </div>
  );
}

export function Logo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mr-1 inline h-6 w-6 align-[-5px]" fill="currentColor">
      <path d="M2 10h2v4H2zm18 0h2v4h-2zM5 7h3v10H5zm11 0h3v10h-3zM8 11h8v2H8z" />
    </svg>
  );
}
