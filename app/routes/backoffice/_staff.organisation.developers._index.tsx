import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiKeysAction, loadApiKeys } from "../../features/developers/api-keys.server";
import { ApiKeyForm } from "../../features/developers/api-key-form";
import { ApiKeyList } from "../../features/developers/api-key-list";
import { NewKeySecret } from "../../features/developers/new-key-secret";

export const meta: MetaFunction = () => [{ title: "Developers · Gym Membership" }];

/** /organisation/developers (issue 33): API keys, and the way to the webhooks and the API's reference. */
export const loader = (args: LoaderFunctionArgs) => loadApiKeys(args);
export const action = (args: ActionFunctionArgs) => apiKeysAction(args);

export default function Developers() {
  const { keys } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="max-w-4xl space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Developers</h1>
        <p className="text-sm text-slate-700">
          API keys let your own software, or a service you use, read and change this organisation&apos;s records through the gym API, as{" "}
          <code>Authorization: Bearer gym_live_…</code>. Each key may do only what you choose below.
        </p>
        <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <li>
            <a href="/api/docs" className="inline-block py-1 font-medium text-brand-700 underline">
              API reference
            </a>
          </li>
          <li>
            <a href="/api/openapi.json" className="inline-block py-1 font-medium text-brand-700 underline">
              OpenAPI document
            </a>
          </li>
          <li>
            <Link to="/organisation/developers/webhooks" className="inline-block py-1 font-medium text-brand-700 underline">
              Webhooks
            </Link>
          </li>
        </ul>
      </div>
      {answer?.created ? <NewKeySecret name={answer.created.name} secret={answer.created.secret} /> : null}
      {answer?.revokeError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {answer.revokeError}
        </p>
      ) : null}
      <section aria-labelledby="keys-heading" className="space-y-3">
        <h2 id="keys-heading" className="text-lg font-semibold">
          API keys
        </h2>
        <ApiKeyList keys={keys} />
      </section>
      <ApiKeyForm lastResult={answer?.lastResult} pending={navigation.state === "submitting" && navigation.formData?.get("intent") === "create"} />
    </div>
  );
}
