import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../../domain/names";
import { MemberPage } from "../../features/members/member-page";
import { memberPageData } from "../../features/members/member-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data?.member.name ? capitaliseWords(data.member.name) : "Member"} · Gym Membership`,
  },
];

/** /members/{id}: profile, status card, payments, visits, door access and price changes. */
export const loader = (args: LoaderFunctionArgs) => memberPageData(args);

export default function MemberShow() {
  return <MemberPage data={useLoaderData<typeof loader>()} />;
}
