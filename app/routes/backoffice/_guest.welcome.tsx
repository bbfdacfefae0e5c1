import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";

export const meta: MetaFunction = () => [{ title: "Welcome · Gym Membership" }];

export default function Welcome() {
  return (
    <AuthCard title="Welcome">
      <div className="space-y-3 text-slate-700">
        <p>Gym Membership is where your gym's staff run members, payments, visits, memberships and prices.</p>
        <p>If you were invited, open the link in your invitation e-mail to set your password, then sign in.</p>
      </div>
      <Link to="/login" className="mt-6 inline-flex w-full justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        Sign in
      </Link>
    </AuthCard>
  );
}
