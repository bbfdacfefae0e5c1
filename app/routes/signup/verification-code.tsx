import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";
import { codeAction, codeConstraint } from "../../features/verify/code-action.server";
import { CodeFormView } from "../../features/verify/code-form-view";
import { OutboxHint } from "../../features/verify/outbox-hint";
import { gymApi } from "../../lib/api.server";
import { outboxHint } from "../../lib/outbox.server";
import { fetchMe, guardSignupPage, nextSignupStep } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Check your e-mail · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  const s = await fetchMe(gymApi(args));
  if (s.state === "anonymous") throw redirect("/");
  if (s.state === "ok") throw redirect(guardSignupPage(args.request, s) ?? nextSignupStep(args.request, s.me));
  return { outbox: outboxHint(), constraint: codeConstraint };
}

export async function action(args: ActionFunctionArgs) {
  return codeAction(args, () => nextSignupStep(args.request), "/");
}

export default function VerificationCode() {
  const { outbox, constraint } = useLoaderData<typeof loader>();
  return (
    <AuthCard title="Check your e-mail" intro="Enter the code we sent you to confirm your e-mail address.">
      <CodeFormView lastResult={useActionData<typeof action>()} constraint={constraint} />
      <OutboxHint href={outbox} />
    </AuthCard>
  );
}
