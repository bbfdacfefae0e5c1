import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadRoster, rosterAction } from "../../features/classes/roster.server";
import { RosterPage } from "../../features/classes/roster-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.class.class_type.name ?? "Class"} · Classes · Gym Membership` }];

/** /classes/{id} (issue 34): the class's roster. */
export const loader = async (args: LoaderFunctionArgs) => ({ ...(await loadRoster(args)), now: new Date().toISOString() });
export const action = (args: ActionFunctionArgs) => rosterAction(args);

export default function ClassRoster() {
  const data = useLoaderData<typeof loader>();
  return <RosterPage data={data} result={useActionData<typeof action>()} now={data.now} />;
}
