import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";
import { SubmitButton } from "../../components/field";
import { unsubscribeAction, unsubscribeLoader } from "../../features/member-mail/unsubscribe.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe · Gym Membership" }];

/**
 * The unsubscribe link at the foot of every member e-mail (issue 31). Opening it changes nothing (mail scanners open
 * links): the button does. Sign-in codes and links a person asks for still come; everything else stops.
 */
export const loader = unsubscribeLoader;
export const action = unsubscribeAction;

/** The page's address holds the member's token: never kept in a cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function Unsubscribe() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const problem = answer?.problem ?? page.problem;
  if (problem) {
    return (
      <AuthCard title="This link does not work" intro={problem}>
        <Link to="/sign-in" className="font-medium text-brand-600 underline">
          Sign in to choose your e-mails instead
        </Link>
      </AuthCard>
    );
  }
  if (answer?.done || page.email_notifications === false) {
    return (
      <AuthCard
        title="You're unsubscribed"
        intro={`We will not send e-mails about your membership to ${page.email} any more. Sign-in codes and links you ask for still come.`}
      >
        <Link to="/membership/details#notifications" className="font-medium text-brand-600 underline">
          Changed your mind? Turn e-mails on again
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Unsubscribe from e-mails?"
      intro={`Stop e-mails about your membership to ${page.email}: receipts, reminders and changes to your membership.`}
    >
      <Form method="post">
        <input type="hidden" name="token" value={page.token ?? ""} />
        <SubmitButton pending={navigation.state === "submitting"}>Unsubscribe</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/membership/details#notifications" className="font-medium text-brand-600 underline">
          Choose which e-mails you get instead
        </Link>
      </p>
    </AuthCard>
  );
}
