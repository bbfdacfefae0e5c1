import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Sign in" }];

/** A page shaped like our sign-in page: a loader, a heading and a form of two fields. */
export function loader() {
  return { at: Date.now() };
}

export default function Index() {
  return (
    <main>
      <h1>Sign in to your account</h1>
      <form method="post">
        <label htmlFor="email">E-mail address</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
