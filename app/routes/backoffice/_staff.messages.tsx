import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readForm } from "../../lib/forms.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { Thread } from "../../features/messages/thread";
import { MemberFinder } from "../../features/members/member-finder";
import { memberOrNull } from "../../features/members/member-or-null.server";
import { orRefusal } from "../../features/members/member-route.server";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Messages · Gym Membership" }];

const id = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);

/**
 * /messages (issue 16): conversations on the left, newest first (search, unread only), the chosen one on the right;
 * ?member= opens a new conversation with a member (from their page, or "Message a member" here). Organisations
 * without calendar and messaging never get here (the layout's guard sends them to the dashboard).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const unreadOnly = url.searchParams.get("unread") === "1";
  const find = (url.searchParams.get("find") ?? "").slice(0, 100);
  const conversationId = id(url.searchParams.get("conversation"));
  const memberId = conversationId ? null : id(url.searchParams.get("member"));
  // Without calendar and messaging the API has no conversations (404): such an organisation's staff go to the
  // dashboard, as the layout's guard sends them (this loader runs beside it).
  const listed = api.get("/messaging/conversations", { query: { search: search || undefined, unread: unreadOnly ? "1" : undefined } }).catch((err) => {
    if (err instanceof ApiRequestError && err.status === 404) throw redirect("/dashboard");
    throw err;
  });
  const [list, thread, member, found] = await orRefusal(
    args.request,
    Promise.all([
      listed,
      conversationId ? api.get("/messaging/conversation-messages", { query: { conversation_id: conversationId } }) : null,
      memberOrNull(api, memberId),
      find ? api.post("/search", { body: { query: find } }) : null,
    ]),
  );
  // A member who already has a conversation: it opens instead of a new one.
  const existing = memberId ? list.data.find((c) => c.member.id === memberId) : undefined;
  if (existing) throw redirect(`/messages?conversation=${existing.id}`);
  return withDateTexts({ list: list.data, search, unreadOnly, find, hits: found?.data ?? null, thread, member: member ? { id: member.id, name: member.name } : null });
}

type Result = { error: string; draft: string };

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const conversationId = id(String(form.get("conversation_id") ?? ""));
  try {
    if (intent === "read" && conversationId) {
      await api.put("/messaging/conversations/:id/read", { params: { id: conversationId } });
      return data({ read: true });
    }
    const body = String(form.get("body") ?? "");
    const memberId = id(String(form.get("member_id") ?? ""));
    const sent = await api.post("/messaging/send", { body: { conversation_id: conversationId ?? undefined, member_id: conversationId ? undefined : (memberId ?? undefined), body } });
    return redirect(`/messages?conversation=${sent.conversation_id}`, { headers: api.headers });
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return data<Result>({ error: err.errors?.body?.[0] ?? err.errors?.member_id?.[0] ?? err.message, draft: String(form.get("body") ?? "") }, { status: err.status >= 500 ? 503 : err.status });
  }
}

export default function Messages() {
  const dates = useDates();
  const { list, search, unreadOnly, find, hits, thread, member } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | { read: true } | undefined;
  const failed = result && "error" in result ? result : undefined;
  const unreadHere = thread ? (list.find((c) => c.id === thread.conversation.id)?.unread_count ?? 0) : 0;
  return (
    // The layout gives this page the whole main area without padding (it scrolls inside itself, SPEC §2).
    <div className="max-w-6xl space-y-4 px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-semibold">Messages</h1>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-[22rem_minmax(0,1fr)]">
        <div className="space-y-3">
          <Form method="get" role="search" className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
            <label htmlFor="conversation-search" className="block text-sm font-medium text-slate-800">
              Search conversations
            </label>
            <input id="conversation-search" name="search" type="search" defaultValue={search} placeholder="Member's name or e-mail" className="block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm" />
            <div className="flex items-center justify-between">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="unread" value="1" defaultChecked={unreadOnly} className="h-4 w-4" /> Unread only
              </label>
              <button type="submit" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Search
              </button>
            </div>
          </Form>
          <nav aria-label="Conversations" className="rounded-lg border border-slate-200 bg-white">
            <ul className="divide-y divide-slate-100">
              {list.length === 0 ? <li className="p-3 text-sm text-slate-600">{search || unreadOnly ? "No conversations match." : "No conversations yet."}</li> : null}
              {list.map((c) => (
                <li key={c.id}>
                  <Link
                    to={`/messages?conversation=${c.id}`}
                    aria-current={thread?.conversation.id === c.id ? "page" : undefined}
                    className={`block p-3 hover:bg-slate-50 ${thread?.conversation.id === c.id ? "bg-brand-50" : ""}`}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{c.member.name}</span>
                      {c.unread_count > 0 ? (
                        <span className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white">
                          {c.unread_count}
                          <span className="sr-only"> unread</span>
                        </span>
                      ) : null}
                    </span>
                    {c.last_message ? (
                      <span className="mt-0.5 block truncate text-sm text-slate-700">
                        {c.last_message.from_member ? "" : "You: "}
                        {c.last_message.body}
                      </span>
                    ) : null}
                    {c.last_message_at ? <span className="block text-xs text-slate-600">{dates.dateTime(c.last_message_at)}</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <MemberFinder label="Message a member" find={find} hits={hits} hrefFor={(id) => `/messages?member=${id}`} className="rounded-lg border border-slate-200 bg-white p-3" />
        </div>
        {thread ? (
          <Thread title={thread.conversation.member.name} messages={thread.data} unread={unreadHere} conversationId={thread.conversation.id} memberId={null} error={failed?.error} draft={failed?.draft} />
        ) : member ? (
          <Thread title={`New conversation with ${member.name}`} messages={[]} unread={0} conversationId={null} memberId={member.id} error={failed?.error} draft={failed?.draft} />
        ) : (
          <p className="rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-600">Choose a conversation, or find a member to message.</p>
        )}
      </div>
    </div>
  );
}
