import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Logo } from "../../components/auth-card";

/**
 * The frame of a member's own pages on the sign-up host: who is signed in, the way home, and signing out. `back`: a
 * page below /membership, with the way back to it under its content.
 */
export function MemberFrame({ title, gym, back = false, children }: { title: string; gym?: string | null; back?: boolean; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50 px-4 py-6 print:bg-white">
      <header className="mx-auto flex max-w-2xl items-center justify-between gap-4 print:hidden">
        <Link to="/membership" className="min-w-0 text-lg font-bold tracking-tight text-brand-700">
          <Logo /> {gym ?? "Gym Membership"}
        </Link>
        <Form method="post" action="/logout" className="shrink-0">
          <button type="submit" className="whitespace-nowrap text-sm font-medium text-slate-700 underline">
            Sign out
          </button>
        </Form>
      </header>
      <main className="mx-auto mt-6 max-w-2xl space-y-6">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {children}
        {back ? (
          <p className="text-center text-sm print:hidden">
            <Link to="/membership" className="font-medium text-brand-700 underline">
              Back to your membership
            </Link>
          </p>
        ) : null}
      </main>
      <footer className="mx-auto mt-10 flex max-w-2xl justify-center gap-4 text-xs text-slate-600 print:hidden">
        <Link to="/legal/privacy-policy" className="underline">
          Privacy policy
        </Link>
        <Link to="/contact-us" className="underline">
          Contact us
        </Link>
      </footer>
    </div>
  );
}
