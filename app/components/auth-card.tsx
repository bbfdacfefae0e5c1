import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * The frame of the guest and sign-up pages: product name, a card, and the legal links. `badge`: what the page
 * is about, above its title (the gym a person is joining).
 */
export function AuthCard({ title, intro, children, footer, badge }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode; badge?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-12">
      <header className="mb-6 text-xl font-bold tracking-tight text-brand-700">
        <Logo /> Gym Membership
      </header>
      <main className="w-full max-w-md rounded-xl bg-white p-8 shadow">
        {badge ? <div className="mb-4">{badge}</div> : null}
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {intro ? <div className="mt-2 text-sm text-slate-600">{intro}</div> : null}
        <div className="mt-6">{children}</div>
      </main>
      {/* Header and footer are landmarks, so no text sits outside every landmark. */}
      <footer className="flex flex-col items-center">
        {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
        <nav aria-label="Legal" className="mt-8 flex gap-4 text-xs text-slate-600">
          <Link to="/legal/privacy-policy" className="underline">
            Privacy policy
          </Link>
          <Link to="/contact-us" className="underline">
            Contact us
          </Link>
        </nav>
      </footer>
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
