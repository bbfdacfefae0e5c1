import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { loadWalkIn, walkInAction } from "../../features/walk-in/walk-in.server";
import { WalkInPage } from "../../features/walk-in/walk-in-page";
import type { loader as staffLoader } from "./_staff";

export const meta: MetaFunction = () => [{ title: "New member · Gym Membership" }];

/** /members/new (issue 32): a walk-in joins on a recurring price at the desk. */
export const loader = (args: LoaderFunctionArgs) => loadWalkIn(args);
export const action = (args: ActionFunctionArgs) => walkInAction(args);

export default function NewMember() {
  const { options, key, today } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">New member</span>
      </nav>
      <h1 className="text-2xl font-semibold">New member</h1>
      <p className="text-sm text-slate-700">
        For someone joining at the desk on a regular membership. They get a link to choose how they pay and confirm, as when joining online. Paid the whole
        membership already?{" "}
        <Link to="/members/pif" className="text-brand-700 underline">
          New paid-in-full member
        </Link>
        .
      </p>
      <WalkInPage
        options={options}
        gyms={(staff?.me.gyms ?? []).filter((g) => !g.archived)}
        currentGymId={staff?.me.current_gym?.id ?? null}
        today={today}
        checkKey={key}
        answer={answer}
        pending={pending}
      />
    </div>
  );
}
