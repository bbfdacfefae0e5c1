import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { FieldErrors } from "../../components/field";
import { useDates } from "../../lib/date-texts";
import { loadMessages, sendMessage } from "../../features/my-membership/messages.server";
import { MemberFrame } from "../../features/my-membership/member-frame";

export const meta: MetaFunction = () => [{ title: "Messages · Gym Membership" }];

/** How often an open thread looks for new replies, with JavaScript, while the page is in view. */
const REFRESH_MS = 10_000;

/**
 * /membership/messages (issue 31): the member's conversation with their gym. A plain form sends; with JavaScript the
 * thread brings the gym's replies in by itself (the loader read again while the page is visible), without a reload.
 */
export const loader = (args: LoaderFunctionArgs) => loadMessages(args);
export const action = (args: ActionFunctionArgs) => sendMessage(args);

export default function MyMessages() {
  const { on, messages } = useLoaderData<typeof loader>()!;
  const answer = useActionData<typeof action>();
  const sending = useNavigation().state === "submitting";
  const dates = useDates();
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [on, revalidator]);
  return (
    <MemberFrame back title="Messages">
      {!on ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
          Your gym does not take messages here. Ask at the desk, or call them.
        </p>
      ) : (
        <>
          <section aria-label="Your conversation with the gym" aria-live="polite" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            {messages.length === 0 ? (
              <p className="text-sm text-slate-600">No messages yet. Ask the gym anything: the staff answer here and by e-mail.</p>
            ) : null}
            {messages.map((m) => (
              <article
                key={m.id}
                className={`max-w-[85%] rounded-lg px-3 py-2 text-sm ${m.from_member ? "ml-auto bg-brand-50 text-slate-900" : "bg-slate-100 text-slate-900"}`}
              >
                <p className="text-xs font-medium text-slate-600">
                  {m.from_member ? "You" : m.sender.name.split(" ")[0]} · {dates.dateTime(m.created_at)}
                </p>
                <p className="mt-1 whitespace-pre-line">{m.body}</p>
              </article>
            ))}
          </section>
          {/* Emptied once their own message is in the thread; a reply arriving while they type leaves it alone. */}
          <Form method="post" className="space-y-2" key={messages.filter((m) => m.from_member).length}>
            <label htmlFor="body" className="block text-sm font-medium text-slate-800">
              Your message
            </label>
            <textarea
              id="body"
              name="body"
              rows={3}
              required
              defaultValue={answer?.body ?? ""}
              aria-invalid={answer?.error ? true : undefined}
              aria-describedby={answer?.error ? "body-error" : undefined}
              className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base"
            />
            <FieldErrors id="body-error" errors={answer?.error ? [answer.error] : undefined} />
            <button
              type="submit"
              disabled={sending}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {sending ? "Sending…" : "Send"}
            </button>
          </Form>
        </>
      )}
    </MemberFrame>
  );
}
