import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { orRefusal } from "../../features/members/member-route.server";
import { OfferingForm } from "../../features/offerings/offering-form";
import { offeringsRoute, saveOffering } from "../../features/offerings/offering-route.server";

export const meta: MetaFunction = () => [{ title: "New offering · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  const api = offeringsRoute(args);
  const [options, me] = await orRefusal(args.request, Promise.all([api.get("/offerings/form-options"), api.get("/me")]));
  if (!me.permissions.includes("offerings.write")) throw new Response("Only admins can create offerings.", { status: 403 });
  return { options };
}

export const action = (args: ActionFunctionArgs) => saveOffering(args, null);

export default function CreateOffering() {
  const { options } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">New offering</h1>
      {options.enable_offerings ? (
        <OfferingForm offering={null} options={options} lastResult={lastResult} pending={navigation.state === "submitting"} />
      ) : (
        <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">Offerings are switched off for this organisation. An organisation admin can switch them on in Settings.</p>
      )}
    </div>
  );
}
