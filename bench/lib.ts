/** What the benches share: waiting for the server they started, and signing the demo admin in through the API. */

export async function waitFor(url: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not come up at ${url}`);
}

/** Signs in through the API with the e-mailed code from the outbox; the session cookie. */
export async function signIn(base: string, email: string, password: string) {
  const headers = { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" };
  const login = await fetch(`${base}/api/login`, { method: "POST", headers, body: JSON.stringify({ email, password }) });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const mails = (await (await fetch(`${base}/dev/mail.json`)).json()) as { to: string; text: string }[];
  const code = mails.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
  const verify = await fetch(`${base}/api/email/verify`, { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify({ code }) });
  if (!verify.ok) throw new Error(`code failed: ${verify.status}`);
  return cookie;
}
