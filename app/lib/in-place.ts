import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * A form that, with JavaScript, is answered in place by its action's data (the desk's "Check in", issue 32): the
 * hidden field is rendered only once hydrated, so without JavaScript the same form redirects as any other does.
 * Its answer changes nothing the frame shows (who is signed in, the unread count, the page's loader), so the
 * routes on screen are not loaded again after it: at the desk, that reload was half the check-in's time.
 */
export const IN_PLACE_FIELD = "in_place";

export function isInPlace(formData: FormData | undefined | null): boolean {
  return formData?.get(IN_PLACE_FIELD) === "1";
}

export function revalidateUnlessInPlace({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return isInPlace(formData) ? false : defaultShouldRevalidate;
}
