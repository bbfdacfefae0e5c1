/** Only same-origin paths are followed after sign-in: "/members?x=1" yes; "//evil.example", "https://…", "/\\evil" no. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not pass
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}
