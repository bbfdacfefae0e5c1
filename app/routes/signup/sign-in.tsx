import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { linkConstraint, leaveIfSignedIn, passwordConstraint, signInAction } from "../../features/member-sign-in/sign-in.server";
import { MemberSignInPage } from "../../features/member-sign-in/sign-in-page";

export const meta: MetaFunction = () => [{ title: "Sign in · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  await leaveIfSignedIn(args);
  const email = new URL(args.request.url).searchParams.get("email") ?? "";
  return { email: email.slice(0, 254), constraints: { password: passwordConstraint, link: linkConstraint } };
}

export const action = (args: ActionFunctionArgs) => signInAction(args);

export default function SignIn() {
  const { email, constraints } = useLoaderData<typeof loader>();
  return <MemberSignInPage email={email} constraints={constraints} result={useActionData<typeof action>()} />;
}
