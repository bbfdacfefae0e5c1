import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadMyDetails, saveMyDetailsAction } from "../../features/my-membership/details.server";
import { MyDetailsPage } from "../../features/my-membership/details-page";

export const meta: MetaFunction = () => [{ title: "Your details · Gym Membership" }];

export const loader = (args: LoaderFunctionArgs) => loadMyDetails(args);
export const action = (args: ActionFunctionArgs) => saveMyDetailsAction(args);

export default function MyDetails() {
  const { details, constraint } = useLoaderData<typeof loader>()!;
  return <MyDetailsPage details={details} constraint={constraint} lastResult={useActionData<typeof action>()} />;
}
