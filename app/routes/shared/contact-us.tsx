import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { leaveIfSignedInStaff } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Contact us · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  await leaveIfSignedInStaff(args);
  return null;
}

export default function ContactUs() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <h1 className="text-3xl font-bold">Contact us</h1>
      <div className="mt-6 space-y-4 text-slate-700">
        <p>For anything about your membership, talk to the staff at your gym: they can change or pause your membership and answer questions about payments.</p>
        <p>
          For help with this website, e-mail{" "}
          <a className="font-medium text-brand-600 underline" href="mailto:support@gym.localhost">
            support@gym.localhost
          </a>
          . We answer within one working day.
        </p>
      </div>
      <p className="mt-8">
        <Link to="/legal/privacy-policy" className="font-medium text-brand-600 underline">
          Privacy policy
        </Link>
      </p>
    </main>
  );
}
