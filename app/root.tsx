import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import styles from "./tailwind.css";
import { useNonce } from "./components/nonce";
import { Toaster } from "./components/toasts";
import { appFor } from "./lib/host.server";
import { requestProblem } from "./lib/request-problem";
import { readToast } from "./lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Gym Membership" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.ico" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const app = appFor(request);
  // An unknown host gets a plain 404 page, whatever the path.
  if (!app) throw data({ message: "Not found" }, { status: 404 });
  const { toast, headers } = await readToast(request);
  return data({ app, toast }, { headers });
}

/**
 * A plain HTML form posted to "/" (an integrator's sign-up form) reaches the root route: send it on,
 * method and body kept (307), to the register page's own action.
 */
export function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  if (appFor(request) === "signup" && url.pathname === "/") {
    url.searchParams.set("index", "");
    return redirect(url.pathname + url.search, 307);
  }
  throw data({ message: "Method not allowed" }, { status: 405 });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en-NZ" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <>
      <Toaster toast={toast} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A refused request (a form without its Content-Type, a body too large) says why, rather than blaming us.
  const badRequest = requestProblem(error);
  if (!notFound && !badRequest) console.error(error);
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-3xl font-bold">{notFound ? "Page not found" : badRequest ? "That did not work" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-600">
        {notFound ? "There is nothing at this address." : (badRequest ?? "Please try again in a moment. If it keeps happening, contact us.")}
      </p>
      <p className="mt-8">
        <a href="/" className="font-medium text-brand-600 underline">
          Go to the start page
        </a>
      </p>
    </main>
  );
}
