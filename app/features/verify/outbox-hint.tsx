/** On a code page of a demo (mail kept in the outbox, not sent): where the e-mailed code can be read. */
export function OutboxHint({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <p className="mt-6 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900">
      This is a demo: nothing is really sent. Read your code in the demo&apos;s mailbox at{" "}
      <a href={href} className="font-medium underline">
        {href}
      </a>
      .
    </p>
  );
}
