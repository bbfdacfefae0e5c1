import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { orRefusal } from "../../features/members/member-route.server";
import { OfferingForm } from "../../features/offerings/offering-form";
import { offeringsRoute, saveOffering } from "../../features/offerings/offering-route.server";
import { idParam } from "../../lib/params.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Edit ${data?.offering.name ?? "offering"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const api = offeringsRoute(args);
  const id = idParam(args.params, "id");
  const [offering, options] = await orRefusal(args.request, Promise.all([api.get("/offerings/:id", { params: { id } }), api.get("/offerings/form-options")]));
  if (!offering.may.change) throw new Response("You cannot change this offering: it is set by the organisation or sold at gyms you do not run.", { status: 403 });
  return { offering, options };
}

export const action = (args: ActionFunctionArgs) => saveOffering(args, idParam(args.params, "id"));

export default function EditOffering() {
  const { offering, options } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">Edit {offering.name}</h1>
      <p className="text-sm text-slate-600">Archived prices are not shown here: restore them on the offering&apos;s page.</p>
      <OfferingForm offering={offering} options={options} lastResult={lastResult} pending={navigation.state === "submitting"} />
    </div>
  );
}
