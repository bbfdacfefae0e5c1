import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { classTypeBody } from "../../features/classes/class-type-body.server";
import { ClassTypeForm, NEW_TYPE } from "../../features/classes/class-type-form";
import { refusedOr, type Refused } from "../../features/classes/submit.server";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "New class type · Gym Membership" }];

/** /classes/types/new (issue 34): an organisation admin adds a kind of class. */
export async function loader(args: LoaderFunctionArgs) {
  const options = await orRefusal(args.request, gymApi(args).get("/class-types/form-options"));
  return { choices: options.offerings };
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const { body, values, dropInError } = classTypeBody(await readForm(args.request));
  if (dropInError) return data<Refused<typeof values>>({ message: "Please check the highlighted fields", errors: dropInError, values }, { status: 422 });
  return refusedOr(args.request, values, async () => {
    const made = await api.post("/class-types", { body });
    return redirectWithToast("/classes/types", { summary: `${made.name} added` }, api.headers);
  });
}

export default function NewClassType() {
  const { choices } = useLoaderData<typeof loader>();
  const result = useActionData<Refused<Record<string, string | string[]>>>();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to="/classes/types" className="text-brand-700 hover:underline">
          Class types
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">New class type</h1>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <ClassTypeForm values={result?.values ?? NEW_TYPE} choices={choices} result={result} submit="Add the class type" />
      </section>
    </div>
  );
}
