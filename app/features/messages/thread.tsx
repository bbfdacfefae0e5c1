import { Form, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useDates } from "../../lib/date-texts";
import { MESSAGE_MAX } from "../../../domain/messaging";
import { controlClass } from "../../components/control-class";

export interface ThreadMessage {
  id: number;
  body: string;
  from_member: boolean;
  created_at: string;
  sender: { id: number; name: string };
}

/**
 * A conversation's messages, oldest first, and the reply box. Bodies are text: React escapes them, and line breaks
 * are kept by CSS (whitespace-pre-wrap), never by inserting HTML. With JavaScript the thread re-reads itself every
 * 10 s and marks what it shows as read; without, "Reload" and "Mark as read" do the same.
 */
export function Thread({
  title,
  messages,
  unread,
  conversationId,
  memberId,
  error,
  draft,
}: {
  title: string;
  messages: ThreadMessage[];
  unread: number;
  conversationId: number | null;
  memberId: number | null;
  error?: string;
  draft?: string;
}) {
  const dates = useDates();
  const { revalidate, state } = useRevalidator();
  const reader = useFetcher();
  useEffect(() => {
    const timer = setInterval(() => state === "idle" && document.visibilityState === "visible" && revalidate(), 10_000);
    return () => clearInterval(timer);
  }, [revalidate, state]);
  useEffect(() => {
    if (conversationId && unread > 0 && reader.state === "idle") reader.submit({ intent: "read", conversation_id: String(conversationId) }, { method: "post" });
    // Only when what is unread changes: a read answered leaves nothing to send again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId, unread]);
  const here = conversationId ? `?conversation=${conversationId}` : memberId ? `?member=${memberId}` : "";
  return (
    <section aria-labelledby="thread-heading" className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 p-3">
        <h2 id="thread-heading" className="font-semibold">
          {title}
        </h2>
        <div className="flex items-center gap-3 text-sm">
          {conversationId && unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="read" />
              <input type="hidden" name="conversation_id" value={conversationId} />
              <button type="submit" className="text-brand-700 underline">
                Mark as read
              </button>
            </Form>
          ) : null}
          <a href={`/messages${here}`} className="text-brand-700 underline">
            Reload
          </a>
        </div>
      </div>
      <ol aria-label="Messages" className="max-h-[60vh] space-y-2 overflow-y-auto p-3">
        {messages.length === 0 ? <li className="text-sm text-slate-600">No messages yet.</li> : null}
        {messages.map((m) => (
          <li key={m.id} className={`flex ${m.from_member ? "justify-start" : "justify-end"}`}>
            <div className={`max-w-[80%] rounded-lg px-3 py-2 text-sm ${m.from_member ? "bg-slate-100 text-slate-900" : "bg-brand-700 text-white"}`}>
              <p className="whitespace-pre-wrap break-words">{m.body}</p>
              <p className={`mt-1 text-xs ${m.from_member ? "text-slate-600" : "text-brand-100"}`}>
                {m.from_member ? m.sender.name : `${m.sender.name} (staff)`} · {dates.dateTime(m.created_at)}
              </p>
            </div>
          </li>
        ))}
      </ol>
      <Form method="post" className="space-y-2 border-t border-slate-200 p-3">
        <input type="hidden" name="intent" value="send" />
        {conversationId ? <input type="hidden" name="conversation_id" value={conversationId} /> : null}
        {!conversationId && memberId ? <input type="hidden" name="member_id" value={memberId} /> : null}
        <label htmlFor="message-body" className="block text-sm font-medium text-slate-800">
          Your message
        </label>
        <textarea
          id="message-body"
          name="body"
          rows={3}
          maxLength={MESSAGE_MAX + 500}
          defaultValue={draft ?? ""}
          key={draft ?? messages.length}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "message-body-error" : undefined}
          className={controlClass(Boolean(error))}
        />
        {error ? (
          <p id="message-body-error" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          Send
        </button>
      </Form>
    </section>
  );
}
