import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiRequestError, gymApi } from "../../lib/api.server";

/** The unsubscribe page's reads and its one post (server/member-mail/routes.ts): a token we did not sign is a problem in words. */
const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

export async function unsubscribeLoader(args: LoaderFunctionArgs) {
  const token = tokenOf(args.request);
  try {
    const state = await gymApi(args).get("/public/unsubscribe", { query: { token } });
    return { token, ...state, problem: null, done: false };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return { token: null, email: null, email_notifications: null, problem: err.message, done: false };
    throw err;
  }
}

export async function unsubscribeAction(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const token = String(form.get("token") ?? "") || tokenOf(args.request);
  try {
    await gymApi(args).post("/public/unsubscribe", { body: { token } });
    return { done: true, problem: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return data({ done: false, problem: err.message }, { status: err.status });
    throw err;
  }
}
