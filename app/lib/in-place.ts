import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * A form that, with JavaScript, is answered in place by its action's data (the desk's "Check in", issue 32): the
 * hidden field is rendered only once hydrated, so without JavaScript the same form redirects as any other does.
 * Its answer makes the page's own loader unnecessary (the answer is the result), so that route is not loaded again
 * after it. Only the page's route says so: with single fetch, a route that exports shouldRevalidate is always told
 * `defaultShouldRevalidate: true` (@remix-run/react routes.js), so on the root or a layout it would reload them
 * after every navigation and after refused (4xx) actions too, which resets forms' file inputs.
 */
export const IN_PLACE_FIELD = "in_place";

export function isInPlace(formData: FormData | undefined | null): boolean {
  return formData?.get(IN_PLACE_FIELD) === "1";
}

export function revalidateUnlessInPlace({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return isInPlace(formData) ? false : defaultShouldRevalidate;
}
