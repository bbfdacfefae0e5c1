import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadMyMembership } from "../../features/my-membership/my-membership.server";
import { MyMembershipPage } from "../../features/my-membership/my-membership-page";

export const meta: MetaFunction = () => [{ title: "Your membership · Gym Membership" }];

export const loader = (args: LoaderFunctionArgs) => loadMyMembership(args);

export default function Membership() {
  return <MyMembershipPage data={useLoaderData<typeof loader>()!} />;
}
