import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadReceipt } from "../../features/my-membership/my-membership.server";
import { ReceiptPage } from "../../features/my-membership/receipt-page";

export const meta: MetaFunction = () => [{ title: "Receipt · Gym Membership" }];

export const loader = (args: LoaderFunctionArgs) => loadReceipt(args, args.params.id ?? "");

export default function Receipt() {
  return <ReceiptPage receipt={useLoaderData<typeof loader>()!.receipt} />;
}
