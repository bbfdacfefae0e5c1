import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";
import { CodeForm } from "../../features/verify/code-form";
import { codeAction } from "../../features/verify/code-action.server";
import { OutboxHint } from "../../features/verify/outbox-hint";
import { gymApi } from "../../lib/api.server";
import { outboxHint } from "../../lib/outbox.server";
import { safeRedirect } from "../../lib/redirect";
import { fetchMe } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Enter your code · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  const s = await fetchMe(gymApi(args));
  const next = safeRedirect(new URL(args.request.url).searchParams.get("redirect"));
  if (s.state === "anonymous") throw redirect("/login");
  if (s.state === "ok") throw redirect(next);
  return { outbox: outboxHint() };
}

export async function action(args: ActionFunctionArgs) {
  return codeAction(args, (form) => safeRedirect(form.get("redirect")), "/login");
}

export default function TwoFactor() {
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <AuthCard title="Enter your code" intro="For your security we e-mail a code when you sign in from a new browser.">
      <CodeForm lastResult={lastResult} redirect={params.get("redirect") ?? "/dashboard"} />
      <OutboxHint href={useLoaderData<typeof loader>().outbox} />
    </AuthCard>
  );
}
