import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { BareError } from "./components/bare-error";
import { useNonce } from "./components/nonce";
import { Stylesheet } from "./components/stylesheet";
import { Toaster } from "./components/toasts";
import { appFor } from "./lib/host.server";
import { readToast } from "./lib/toast.server";
import { browserReporting } from "./lib/reporting.server";
import { useBrowserReporting } from "./components/browser-reporting";

export const meta: MetaFunction = () => [{ title: "Gym Membership" }];
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.ico" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const app = appFor(request);
  // An unknown host gets a plain 404 page, whatever the path.
  if (!app) throw data({ message: "Not found" }, { status: 404 });
  const { toast, headers } = await readToast(request);
  return data({ app, toast, reporting: browserReporting(app) }, { headers });
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
  // The root's data is missing on an error page for an unknown host: the linked stylesheet then.
  const app = useRouteLoaderData<typeof loader>("root")?.app;
  return (
    <html lang="en-NZ" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Stylesheet inline={app === "signup"} nonce={nonce} />
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
  const { toast, reporting } = useLoaderData<typeof loader>();
  useBrowserReporting(reporting);
  return (
    <>
      <Toaster toast={toast} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <BareError />;
}
