import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadMyPayment, myPaymentAction } from "../../features/my-membership/payment.server";
import { MyPaymentPage } from "../../features/my-membership/payment-page";

export const meta: MetaFunction = () => [{ title: "How you pay · Gym Membership" }];

/** /membership/payment (issue 31): change how the membership is paid, and pay what is owing. */
export const loader = (args: LoaderFunctionArgs) => loadMyPayment(args);
export const action = (args: ActionFunctionArgs) => myPaymentAction(args);

export default function MyPayment() {
  return <MyPaymentPage data={useLoaderData<typeof loader>()!} />;
}
