import { data, redirect } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";

/**
 * The sandbox providers' stand-in pages (app/routes/sandbox.*): what the API answers for a page that is not there
 * (a live deployment has none) is the plain 404 a provider would give.
 */
const notThere = (err: unknown) => err instanceof ApiRequestError && err.status === 404;

export async function sandboxLoad<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (notThere(err)) throw new Response("No such page.", { status: 404 });
    throw err;
  }
}

/** The page's form sent: on to where the provider sends the person, or the page again with what it refused (422). */
export async function sandboxSubmit<T>(send: () => Promise<string>, refused: (err: ApiRequestError) => T) {
  try {
    return redirect(await send());
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return data(refused(err), { status: 422 });
    if (notThere(err)) throw new Response("No such page.", { status: 404 });
    throw err;
  }
}
