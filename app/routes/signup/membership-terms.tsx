import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ApiRequestError, gymApi } from "../../lib/api.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Membership terms${data ? ` · ${data.gym}` : ""} · Gym Membership` }];

/**
 * A gym's membership terms (issue 31): what "I accept … membership terms" on the confirm page means, in the
 * organisation's own words or at its own address. Public: `?gym=` names the gym by the uuid its sign-up links use.
 */
export async function loader(args: LoaderFunctionArgs) {
  const uuid = new URL(args.request.url).searchParams.get("gym") ?? "";
  try {
    return await gymApi(args).get("/public/gyms/:uuid/membership-terms", { params: { uuid } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) throw new Response("No such gym.", { status: 404 });
    throw err;
  }
}

export default function MembershipTerms() {
  const terms = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <h1 className="text-3xl font-bold">{terms.gym}: membership terms</h1>
      {terms.text ? <div className="mt-6 whitespace-pre-line text-slate-700">{terms.text}</div> : null}
      {terms.url ? (
        <p className="mt-6">
          <a href={terms.url} className="font-medium text-brand-600 underline" rel="noopener noreferrer">
            {terms.text ? `Read ${terms.organisation}'s full terms` : `Read ${terms.organisation}'s membership terms`}
          </a>
        </p>
      ) : null}
      {!terms.text && !terms.url ? (
        <p className="mt-6 text-slate-700">
          {terms.organisation} has not published its membership terms here. Ask the gym for them before you join: joining means you agree to pay as the confirm
          page shows until you cancel.
        </p>
      ) : null}
      <p className="mt-8 flex gap-4">
        <Link to="/legal/privacy-policy" className="font-medium text-brand-600 underline">
          Privacy policy
        </Link>
        <Link to="/contact-us" className="font-medium text-brand-600 underline">
          Contact us
        </Link>
      </p>
    </main>
  );
}
