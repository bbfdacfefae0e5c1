import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";
import { SubmitButton } from "../../components/field";
import { checkLink, claimLinkAction, leaveIfSignedIn } from "../../features/member-sign-in/sign-in.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Gym Membership" }];

/**
 * The page an e-mailed sign-in link opens (issue 31). Opening it signs nobody in: mail scanners open links, and a
 * link used by a GET would be spent before the person clicks. The button posts the token, once.
 */
export async function loader(args: LoaderFunctionArgs) {
  await leaveIfSignedIn(args);
  return checkLink(args);
}

/** The page holds a one-time token: never kept in a cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const action = (args: ActionFunctionArgs) => claimLinkAction(args);

export default function SignInLink() {
  const link = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const navigation = useNavigation();
  const problem = refused?.problem ?? link.problem;
  if (problem || !link.token) {
    return (
      <AuthCard title="This link no longer works" intro={problem}>
        <Link to="/sign-in" className="font-medium text-brand-600 underline">
          Sign in, or ask for a new link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign in" intro={`Signing in as ${link.name} (${link.email}).`}>
      <Form method="post">
        <input type="hidden" name="token" value={link.token} />
        <SubmitButton pending={navigation.state === "submitting"}>Continue</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/sign-in" className="font-medium text-brand-600 underline">
          Not you? Sign in another way
        </Link>
      </p>
    </AuthCard>
  );
}
