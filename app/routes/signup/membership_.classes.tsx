import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { classAction, loadMyClasses } from "../../features/my-membership/classes.server";
import { MyClassesPage } from "../../features/my-membership/classes-page";

export const meta: MetaFunction = () => [{ title: "Classes · Gym Membership" }];

/** /membership/classes (issue 34): book, join the waitlist, cancel. */
export const loader = (args: LoaderFunctionArgs) => loadMyClasses(args);
export const action = (args: ActionFunctionArgs) => classAction(args);

export default function MyClasses() {
  const data = useLoaderData<typeof loader>()!;
  return <MyClassesPage data={data} refused={useActionData<typeof action>()} />;
}
