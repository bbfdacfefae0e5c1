import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { useDates } from "../../lib/date-texts";
import { capitaliseWords } from "../../../domain/names";
import { controlClass } from "../../components/control-class";
import { DateInput, Field, invalidProps, SubmitRow } from "../../features/debugging/forms";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Active user check · Gym Membership" }];

/**
 * /active-user-debugging?q=&member=&day=: find the member by name or e-mail (a plain GET form: the matches are
 * links), then see whether they counted as an active user that day, and why.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const values = { q: url.searchParams.get("q") ?? "", member: url.searchParams.get("member") ?? "", day: url.searchParams.get("day") || localDay(new Date()) };
  try {
    if (values.member) {
      try {
        return withDateTexts({ values, errors: {} as Record<string, string[]>, hits: null, answer: await api.get("/active-user-debugging", { query: { member: values.member, day: values.day } }) });
      } catch (err) {
        if (err instanceof ApiRequestError && (err.status === 422 || err.status === 404)) {
          const errors = err.status === 404 ? { member: ["No such member"] } : (err.errors ?? {});
          return withDateTexts({ values, errors, hits: null, answer: null });
        }
        throw err;
      }
    }
    const hits = values.q.trim() ? (await api.post("/search", { body: { query: values.q } })).data : null;
    return withDateTexts({ values, errors: {} as Record<string, string[]>, hits, answer: null });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function ActiveUserDebugging() {
  const dates = useDates();
  const { values, errors, hits, answer } = useLoaderData<typeof loader>();
  const dayError = errors.day?.[0];
  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Active user check</h1>
        <p className="mt-1 text-sm text-slate-600">Whether a member counts in the dashboard&apos;s active users on a day, and the rule that decided it.</p>
      </div>
      <Form method="get" className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 sm:items-end" aria-label="Find a member">
        <Field id="active-q" label="Member" error={errors.member?.[0]}>
          <input id="active-q" name="q" type="search" defaultValue={values.q} placeholder="Name or e-mail" className={controlClass(Boolean(errors.member))} {...invalidProps("active-q", errors.member?.[0])} />
        </Field>
        <Field id="active-day" label="Day" error={dayError}>
          <DateInput id="active-day" name="day" value={values.day} error={dayError} />
        </Field>
        <SubmitRow label="Find" />
      </Form>
      {hits ? (
        hits.length ? (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm" aria-label="Matching members">
            {hits.map((h) => (
              <li key={h.id} className="px-4 py-2">
                <Link to={`?${new URLSearchParams({ q: values.q, member: String(h.id), day: values.day })}`} className="text-brand-700 underline">
                  {capitaliseWords(h.name)}
                </Link>{" "}
                <span className="text-slate-600">{h.email}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No member matches &quot;{values.q}&quot;.</p>
        )
      ) : null}
      {answer ? (
        <section aria-labelledby="verdict" className="space-y-4">
          <div className={`rounded-lg border p-4 ${answer.counts_as_active ? "border-green-200 bg-green-50" : "border-amber-200 bg-amber-50"}`}>
            <h2 id="verdict" className="text-lg font-semibold">
              {capitaliseWords(answer.member.name)} {answer.counts_as_active ? "counts" : "does not count"} as active
            </h2>
            <p className="text-sm text-slate-700">
              At {dates.dateTime(answer.at)}. {answer.decided_by}
            </p>
            <p className="mt-1 text-sm text-slate-700">
              Door: {answer.door.allowed ? "lets them in" : "keeps them out"}. {answer.door.reason}
            </p>
          </div>
          {answer.subscriptions.map((s) => (
            <div key={s.id} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h3 className="font-semibold">
                Subscription {s.id}: {s.offering} · {s.state} · {s.counts ? "running" : "not running"}
              </h3>
              <table className="mt-2 min-w-full text-left">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="py-1 pr-4">Condition</th>
                    <th scope="col" className="py-1 pr-4">Holds</th>
                    <th scope="col" className="py-1">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {s.conditions.map((c) => (
                    <tr key={c.rule}>
                      <td className="py-1 pr-4">{c.rule}</td>
                      <td className={`py-1 pr-4 font-medium ${c.holds ? "text-green-800" : "text-red-800"}`}>{c.holds ? "Yes" : "No"}</td>
                      <td className="py-1 text-slate-700">{c.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}
