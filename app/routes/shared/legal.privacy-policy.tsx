import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { leaveIfSignedInStaff } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Privacy policy · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  await leaveIfSignedInStaff(args);
  return null;
}

export default function PrivacyPolicy() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-12">
      <h1 className="text-3xl font-bold">Privacy policy</h1>
      <div className="prose mt-6 space-y-4 text-slate-700">
        <p>We keep the details you give us to run your gym membership: your name, contact details, membership, payments and visits.</p>
        <h2 className="pt-2 text-xl font-semibold text-slate-900">What we collect</h2>
        <p>Your name, e-mail address, mobile number and, when you join, your date of birth, emergency contact, photo and payment method. Card numbers go straight to our card payment provider and never reach our servers.</p>
        <h2 className="pt-2 text-xl font-semibold text-slate-900">How we use it</h2>
        <p>To run your membership: to bill you, let you into the gym, and contact you about your membership. We do not sell your details.</p>
        <h2 className="pt-2 text-xl font-semibold text-slate-900">Your rights</h2>
        <p>You may ask to see or correct the details we hold about you, or ask us to delete them, under the New Zealand Privacy Act 2020.</p>
      </div>
      <p className="mt-8">
        <Link to="/contact-us" className="font-medium text-brand-600 underline">
          Contact us
        </Link>
      </p>
    </main>
  );
}
