import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { kioskAction, loadKiosk, type KioskAnswer } from "../../features/check-in/kiosk.server";

/** How long an answer stays on the kiosk before it is ready for the next person. */
const ANSWER_SECONDS = 6;

// An answer clears itself without JavaScript too: the page refreshes to the empty kiosk.
export const meta: MetaFunction = ({ location }) => [
  { title: "Check in · Gym Membership" },
  ...(/[?&](in|desk|unknown)=/.test(location.search) ? [{ httpEquiv: "refresh", content: `${ANSWER_SECONDS};url=/kiosk` }] : []),
];

export const loader = (args: LoaderFunctionArgs) => loadKiosk(args);
export const action = (args: ActionFunctionArgs) => kioskAction(args);

/** /kiosk (issue 32): members check themselves in at the entrance with their code; staff start it here. */
export default function Kiosk() {
  const { kiosk, gym, answer, key } = useLoaderData<typeof loader>()!;
  const navigate = useNavigate();
  const busy = useNavigation().state === "submitting";
  useEffect(() => {
    if (!answer) return;
    const clear = setTimeout(() => navigate("/kiosk", { replace: true }), ANSWER_SECONDS * 1000);
    return () => clearTimeout(clear);
  }, [answer, navigate]);

  if (!kiosk)
    return (
      <main className="mx-auto max-w-xl space-y-5 p-8">
        <h1 className="text-2xl font-semibold text-slate-900">Check-in kiosk{gym ? ` · ${gym}` : ""}</h1>
        <p className="text-slate-700">
          This device becomes the check-in kiosk at {gym ?? "this gym"}: members check themselves in with their member code, and it shows nothing else. To use
          the back-office on it again, sign out on the kiosk and sign in as staff.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="start" />
          <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            Start kiosk mode
          </button>
        </Form>
      </main>
    );

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 bg-slate-50 p-6 text-center">
      <h1 className="text-3xl font-semibold text-slate-900">Welcome{gym ? ` to ${gym}` : ""}</h1>
      {answer ? <Answer answer={answer} /> : null}
      <Form method="post" className="w-full max-w-sm space-y-4" aria-label="Check in with your member code">
        <input type="hidden" name="key" value={key} />
        <label htmlFor="code" className="block text-lg font-medium text-slate-800">
          Your member code
        </label>
        <input
          id="code"
          name="code"
          required
          autoFocus
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          aria-describedby="code-hint"
          className="block w-full rounded-md border border-slate-300 px-4 py-3 text-center font-mono text-3xl uppercase tracking-widest"
        />
        <p id="code-hint" className="text-sm text-slate-600">
          It is on your membership page, under Getting in.
        </p>
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-md bg-brand-600 px-4 py-3 text-xl font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          Check in
        </button>
      </Form>
      <Form method="post" action="/logout">
        <button type="submit" className="text-xs text-slate-500 underline">
          Staff: sign out of the kiosk
        </button>
      </Form>
    </main>
  );
}

function Answer({ answer }: { answer: NonNullable<KioskAnswer> }) {
  if (answer.kind === "in")
    return (
      <p role="status" className="rounded-lg bg-green-100 px-6 py-4 text-2xl font-semibold text-green-900">
        You&apos;re checked in, {answer.name}. Enjoy your workout!
      </p>
    );
  if (answer.kind === "desk")
    return (
      <p role="alert" className="rounded-lg bg-amber-100 px-6 py-4 text-2xl font-semibold text-amber-900">
        {answer.name}, please see the front desk.
      </p>
    );
  return (
    <p role="alert" className="rounded-lg bg-red-100 px-6 py-4 text-xl font-semibold text-red-900">
      That code is not one of ours. Check it, or ask at the front desk.
    </p>
  );
}
