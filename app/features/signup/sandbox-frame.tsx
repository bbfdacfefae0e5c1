import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/** The look of a sandbox provider's page: the provider's name, a plain badge saying it is the sandbox, a card. */
export function SandboxFrame({ provider, badge, brand, children }: { provider: string; badge: string; brand: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-100 px-4 py-10">
      <header className="mx-auto mb-4 flex max-w-md items-center justify-between">
        <p className={`text-lg font-bold ${brand}`}>{provider}</p>
        <p className="rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-900">{badge}</p>
      </header>
      <main className="mx-auto max-w-md rounded-xl bg-white p-6 shadow">{children}</main>
    </div>
  );
}

/** A sandbox page's way out: the provider sends the person back as cancelled (the page's action reads intent=cancel). */
export function SandboxCancel() {
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="intent" value="cancel" />
      <button type="submit" className="w-full rounded-md px-4 py-2 text-sm font-medium text-slate-700 underline">
        Cancel and go back
      </button>
    </Form>
  );
}
