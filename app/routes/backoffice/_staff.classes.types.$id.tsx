import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { classTypeBody } from "../../features/classes/class-type-body.server";
import { ClassTypeForm, typeValues } from "../../features/classes/class-type-form";
import { refusedOr, type Refused } from "../../features/classes/submit.server";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Class type · Gym Membership" }];

const idOf = (params: Record<string, string | undefined>) => {
  if (!/^\d{1,9}$/.test(params.id ?? "")) throw new Response("No such class type.", { status: 404 });
  return Number(params.id);
};

/** /classes/types/{id} (issue 34): change a class type (classes already on the timetable keep theirs), archive or restore it. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const [type, options] = await orRefusal(args.request, Promise.all([api.get("/class-types/:id", { params: { id } }), api.get("/class-types/form-options")]));
  return { type, choices: options.offerings };
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "save");
  if (intent === "archive" || intent === "restore") {
    return refusedOr(args.request, {}, async () => {
      const done = await api.post(intent === "archive" ? "/class-types/:id/archive" : "/class-types/:id/restore", { params: { id } });
      return redirectWithToast("/classes/types", { summary: `${done.name} ${intent === "archive" ? "archived" : "restored"}` }, api.headers);
    });
  }
  const { body, values, dropInError } = classTypeBody(form);
  if (dropInError) return data<Refused<typeof values>>({ message: "Please check the highlighted fields", errors: dropInError, values }, { status: 422 });
  return refusedOr(args.request, values, async () => {
    const done = await api.put("/class-types/:id", { params: { id }, body });
    return redirectWithToast(
      "/classes/types",
      { summary: `${done.name} saved`, detail: "Classes already on the timetable keep their own length and places." },
      api.headers,
    );
  });
}

export default function ClassTypePage() {
  const { type, choices } = useLoaderData<typeof loader>();
  const result = useActionData<Refused<Record<string, string | string[]>>>();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to="/classes/types" className="text-brand-700 hover:underline">
          Class types
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{type.name}</h1>
      {type.archived ? (
        <Form method="post" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm">
          <p>This class type is archived: no new classes of it can be scheduled.</p>
          <button
            type="submit"
            name="intent"
            value="restore"
            className="mt-2 rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            Restore it
          </button>
        </Form>
      ) : (
        <>
          <section className="rounded-lg border border-slate-200 bg-white p-4">
            <ClassTypeForm
              values={result?.values && Object.keys(result.values).length ? result.values : typeValues(type)}
              choices={choices}
              result={result && Object.keys(result.values).length ? result : null}
              submit="Save the class type"
            />
          </section>
          <Form method="post" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
            <p className="text-slate-700">Archiving stops new classes of this type; classes already on the timetable run as scheduled.</p>
            <button
              type="submit"
              name="intent"
              value="archive"
              className="mt-2 rounded-md bg-white px-3 py-1.5 text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50"
            >
              Archive {type.name}
            </button>
          </Form>
        </>
      )}
      {result && !Object.keys(result.values).length ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {Object.values(result.errors)[0]?.[0] ?? result.message}
        </p>
      ) : null}
    </div>
  );
}
