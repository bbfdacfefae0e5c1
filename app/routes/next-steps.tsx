import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../domain/dates";
import { AuthCard } from "../components/auth-card";
import { gymApi } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { fetchMe, guardSignupPage, type Me } from "../lib/session.server";

export const meta: MetaFunction = () => [{ title: "What happens next · Gym Membership" }];

/**
 * Where a verified member lands until the online photo and payment steps exist: an honest account of
 * what happens next, not a pretend step.
 */
export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "signup");
  const s = await fetchMe(gymApi(args));
  const to = guardSignupPage(args.request, s);
  if (to) throw redirect(to);
  return { me: (s as { me: Me }).me };
}

export default function NextSteps() {
  const { me } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={`Thanks, ${capitaliseWords(me.name.split(" ")[0])}`}>
      <div className="space-y-3 text-slate-700">
        <p>
          Your account is set up and <strong>{me.email}</strong> is confirmed.
        </p>
        <p>
          Choosing a membership, adding a photo and setting up payment online is not open yet. The gym's staff will finish joining you up in
          person or by e-mail; nothing is charged until you have agreed to a membership.
        </p>
      </div>
      <Form method="post" action="/logout" className="mt-6">
        <button type="submit" className="w-full rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50">
          Sign out
        </button>
      </Form>
    </AuthCard>
  );
}
