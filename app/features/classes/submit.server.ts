import { data } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";

/**
 * A class page's action: the API call, and on a refusal the form again with the person's values, the API's message
 * and its fields' errors (SPEC §5), never a 500. A lost session goes where the guard would send it.
 */
export type Refused<V> = { message: string; errors: Record<string, string[]>; values: V; intent?: string };

export async function refusedOr<T, V>(request: Request, values: V, call: () => Promise<T>, intent?: string): Promise<T | ReturnType<typeof data<Refused<V>>>> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Response) throw err;
    if (!(err instanceof ApiRequestError) || err.status === 401 || err.status === 404) redirectForApiError(request, err);
    return data<Refused<V>>({ message: err.message, errors: err.errors ?? {}, values, intent }, { status: err.status >= 500 ? 503 : err.status });
  }
}

/** A form's fields as strings (checkbox groups as lists), to send back with the errors. */
export const formValues = (form: FormData, multi: string[] = []) => {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) out[key] = multi.includes(key) ? form.getAll(key).map(String) : String(form.get(key) ?? "");
  return out;
};
