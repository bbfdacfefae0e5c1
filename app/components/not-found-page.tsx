/** The words of the bare error page (components/bare-error.tsx), shared with the host gate's 404 document. */
export function BareErrorMessage({ heading, text }: { heading: string; text: string }) {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-3xl font-bold">{heading}</h1>
      <p className="mt-4 text-slate-600">{text}</p>
      <p className="mt-8">
        <a href="/" className="font-medium text-brand-600 underline">
          Go to the start page
        </a>
      </p>
    </main>
  );
}

export const NOT_FOUND = { heading: "Page not found", text: "There is nothing at this address." };

/**
 * The whole 404 document the host gate sends for a route of the other app (lib/host-gate.server.tsx). It has no
 * scripts, so nothing hydrates against a route the browser's address does not name.
 */
export function NotFoundDocument({ stylesheet }: { stylesheet: string }) {
  return (
    <html lang="en-NZ" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Page not found · Gym Membership</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased">
        <BareErrorMessage {...NOT_FOUND} />
      </body>
    </html>
  );
}
