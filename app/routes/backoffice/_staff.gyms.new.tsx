import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { loadNewGym, openGymAction } from "../../features/gyms/new-gym.server";
import { NewGymForm } from "../../features/gyms/new-gym-form";

export const meta: MetaFunction = () => [{ title: "Open a new gym · Gym Membership" }];

/** /gyms/new (issue 32): an organisation admin opens a new location. */
export const loader = (args: LoaderFunctionArgs) => loadNewGym(args);
export const action = (args: ActionFunctionArgs) => openGymAction(args);

export default function NewGym() {
  const { organisation } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to="/gyms" className="text-brand-700 hover:underline">
          Gyms
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">Open a new gym{organisation ? ` at ${organisation}` : ""}</h1>
      <NewGymForm lastResult={lastResult} pending={navigation.state === "submitting"} />
    </div>
  );
}
