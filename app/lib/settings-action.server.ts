import { data } from "@remix-run/node";
import type { SectionResult } from "../components/settings-sections";
import { ApiRequestError, type GymApi } from "./api.server";
import { readForm } from "./forms.server";
import { redirectForApiError } from "./session.server";
import { redirectWithToast } from "./toast.server";

/** A form's text field ("" when absent) and checkbox. */
export const formText = (f: FormData, k: string) => String(f.get(k) ?? "");
export const formOn = (f: FormData, k: string) => f.get(k) === "on";

/** One section of a settings page: what it sends the API, the toast it ends with, and the fields it gives back on an error. */
export interface Section<Id> {
  save: (api: GymApi, id: Id, form: FormData) => Promise<unknown>;
  summary: string;
  /** The fields given back after an error; one ending in "*" stands for every posted field it begins. */
  fields: string[];
  /** Where a save lands, when not back on the page (a removal: the list). */
  back?: string;
}

/** A field error found before the API is asked (money typed in dollars, checked on the page): answered like the API's 422. */
export class SectionInvalid extends Error {
  constructor(public errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? "Check the form.");
  }
}

/**
 * The action of a page of settings sections (/organisation/settings, /gyms/{id}/edit): the posted `intent` picks
 * the section; saved, back to `back` with its toast; refused, the page again with the section's errors and values.
 */
export async function settingsAction<Id>(request: Request, api: GymApi, id: Id, sections: Record<string, Section<Id>>, back: string) {
  const form = await readForm(request);
  const intent = formText(form, "intent");
  const section = sections[intent];
  if (!section) return data<SectionResult>({ intent, errors: {}, values: {}, message: "That button is not one of this page's. Reload the page and try again." }, { status: 400 });
  // A field named "gyms[*" keeps every posted field it begins (a list of rows).
  const values = () =>
    Object.fromEntries(
      section.fields.flatMap((k) => (k.endsWith("*") ? [...form.keys()].filter((f) => f.startsWith(k.slice(0, -1))) : [k]).map((f) => [f, formText(form, f)])),
    );
  try {
    await section.save(api, id, form);
    return redirectWithToast(section.back ?? back, { summary: section.summary }, api.headers);
  } catch (err) {
    if (err instanceof SectionInvalid) return data<SectionResult>({ intent, errors: err.errors, values: values(), message: err.message }, { status: 400 });
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(request, err);
    return data<SectionResult>({ intent, errors: err.errors ?? {}, values: values(), message: err.message }, { status: err.status >= 500 ? 503 : err.status });
  }
}
