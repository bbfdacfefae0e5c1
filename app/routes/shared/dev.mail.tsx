import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { outbox, pushOutbox } from "../../lib/outbox.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Outbox · Gym Membership" }];

export async function loader() {
  const [mails, pushes] = await Promise.all([outbox(), pushOutbox()]);
  return withDateTexts({ mails, pushes });
}

export default function DevMail() {
  const dates = useDates();
  const { mails, pushes } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="text-2xl font-bold">Outbox</h1>
      <p className="mt-2 text-sm text-slate-600">Mail this demo has sent, newest first. It exists only while SMTP_URL is not set.</p>
      {mails.length === 0 ? <p className="mt-6">No mail yet.</p> : null}
      <ol className="mt-6 space-y-4">
        {mails.map((m, i) => (
          <li key={i} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <p className="text-sm text-slate-600">
              To <strong className="text-slate-900">{m.to}</strong> · {dates.dateTime(m.sent_at)}
            </p>
            <h2 className="mt-1 font-semibold">{m.subject}</h2>
            <pre className="mt-2 whitespace-pre-wrap break-words font-sans text-sm text-slate-800">{m.text}</pre>
          </li>
        ))}
      </ol>
      <h2 className="mt-10 text-xl font-bold">Push notifications</h2>
      <p className="mt-2 text-sm text-slate-600">What the sandbox push service (OneSignal) would have sent to members&apos; phones, newest first.</p>
      {pushes.length === 0 ? <p className="mt-6">No push notifications yet.</p> : null}
      <ol className="mt-6 space-y-4">
        {pushes.map((p, i) => (
          <li key={i} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <p className="text-sm text-slate-600">
              To <strong className="text-slate-900">{p.to}</strong> · {dates.dateTime(p.sent_at)}
            </p>
            <h3 className="mt-1 font-semibold">{p.heading}</h3>
            <p className="mt-1 text-sm text-slate-800">{p.content}</p>
            {p.url ? <p className="mt-1 break-all text-sm text-slate-600">Opens {p.url}</p> : null}
          </li>
        ))}
      </ol>
    </main>
  );
}
