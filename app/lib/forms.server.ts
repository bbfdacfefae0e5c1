import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { ApiRequestError } from "./api.server";

/**
 * The posted form of a page's action, or a 400 page: a post with no or the wrong Content-Type, or a body that
 * does not parse, makes Remix's request.formData() throw, which would otherwise be a 500. Every action reads its form here.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: "The form could not be read. Go back to the page and send it again." }, { status: 400 });
  }
}

type Submission = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

/**
 * Turns an API failure into the form's answer: 422 field errors on their fields, anything else as a
 * message above the form. The user's values come back with it (passwords excepted).
 */
export function replyWithApiError(submission: Submission, err: unknown, opts: { hideFields?: string[]; headers?: Headers } = {}) {
  if (!(err instanceof ApiRequestError)) throw err;
  const fieldErrors = err.status === 422 && err.errors ? err.errors : undefined;
  const formErrors = fieldErrors ? [] : [err.message];
  const status = err.status >= 500 ? 503 : err.status;
  return data(submission.reply({ fieldErrors, formErrors, hideFields: opts.hideFields }), { status, headers: opts.headers });
}
