import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as staffLoader } from "./_staff";
import { archiveAction } from "../../features/gyms/archive.server";
import { JoinLinks } from "../../features/gyms/join-links";
import { joinFormSnippet } from "../../features/gyms/join-snippet";
import { qrSvg } from "../../lib/qr.server";
import type { ReactNode } from "react";
import { formatCents } from "../../../domain/money";
import { GYM_CREDENTIALS, type CredentialService } from "../../../domain/gym-credentials";
import { connectAction } from "../../features/gyms/connect.server";
import { loadGym } from "../../features/gyms/gym-route.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.gym.name ?? "Gym"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const gym = await loadGym(args);
  return {
    gym,
    qr: gym.join ? await qrSvg(gym.join.url, `QR code of the join link for ${gym.name}`) : null,
    snippet: gym.join ? joinFormSnippet(gym.join.url, gym.uuid) : null,
  };
}

/**
 * The Connect buttons: each goes to the provider's page, which sends the admin back to /{service}/callback. Archive
 * and restore (organisation admins, issue 32).
 */
export async function action(args: ActionFunctionArgs) {
  const intent = (await readForm(args.request)).get("intent");
  if (intent === "archive" || intent === "restore") return archiveAction(args, intent);
  if (intent !== "connect-stripe" && intent !== "connect-gocardless") throw new Response("That button is not one of this page's.", { status: 400 });
  return connectAction(args, intent === "connect-stripe" ? "stripe" : "gocardless");
}

function ConnectButton({ service, connected }: { service: "stripe" | "gocardless"; connected: boolean }) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={`connect-${service}`} />
      <button type="submit" className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium hover:bg-slate-50">
        {connected ? "Connect another account" : `Connect ${service === "stripe" ? "Stripe" : "GoCardless"}`}
      </button>
    </Form>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `gym-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="mb-2 font-semibold">
        {title}
      </h2>
      <dl className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">{children}</dl>
    </section>
  );
}
const Row = ({ term, children }: { term: string; children: ReactNode }) => (
  <>
    <dt className="text-slate-600">{term}</dt>
    <dd className="break-words">{children}</dd>
  </>
);

/** /gyms/{id}: a gym's settings at a glance; /gyms/{id}/edit changes them. */
export default function GymPage() {
  const { gym: g, qr, snippet } = useLoaderData<typeof loader>();
  const mayArchive = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff")?.me.permissions.includes("gyms.create");
  const surcharge = g.card_surcharge_basis_points || g.card_surcharge_fixed ? `${g.card_surcharge_basis_points / 100}% + ${formatCents(g.card_surcharge_fixed)}` : "None";
  return (
    <div className="max-w-5xl space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/gyms" className="text-brand-700 hover:underline">
              Gyms
            </Link>
          </p>
          <h1 className="text-2xl font-semibold">{g.name}</h1>
          <p className="text-slate-700">
            {g.staff_count} staff · {g.members_count.toLocaleString("en-NZ")} members
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`/gyms/${g.id}/imports`} className="rounded-md bg-white px-4 py-2 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            Member imports
          </Link>
          <Link to={`/gyms/${g.id}/edit`} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
            Edit
          </Link>
        </div>
      </div>
      {g.archived_at ? (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
          This gym is archived: it is not sold, not listed for people to join and not in the gym switcher. Its members, payments and history are kept.
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Card title="Details">
          <Row term="Address">{g.address ? <span className="whitespace-pre-line">{g.address}</span> : "—"}</Row>
          <Row term="Price-change replies to">{g.price_change_notification_reply_to ?? "—"}</Row>
          <Row term="Break fee">{g.break_fee_percentage === null ? "—" : `${g.break_fee_percentage}%`}</Row>
          <Row term="Card surcharge">{surcharge}</Row>
          <Row term="Members are told">{g.general_card_surcharge_text ?? "—"}</Row>
          <Row term="Door visits">{g.tracks_visits ? "Counted as visits" : "Not counted"}</Row>
        </Card>
        <Card title="Bank account">
          {g.destination_account ? (
            <>
              <Row term="Name">{g.destination_account.name}</Row>
              <Row term="Number">
                <span className="tabular-nums">{g.destination_account.bank_account_number}</span>
              </Row>
            </>
          ) : (
            <Row term="Account">None yet: members&apos; payments have nowhere to go.</Row>
          )}
        </Card>
        <Card title="Payment providers">
          <Row term="Cards">
            <span className="mr-2">{g.stripe_id ? `Connected (${g.stripe_id})` : "Not connected"}</span>
            <ConnectButton service="stripe" connected={Boolean(g.stripe_id)} />
          </Row>
          <Row term="Direct debit">
            <span className="mr-2">{g.gocardless_organisation_id ? `Connected (${g.gocardless_organisation_id})` : "Not connected"}</span>
            <ConnectButton service="gocardless" connected={Boolean(g.gocardless_organisation_id)} />
          </Row>
        </Card>
        <Card title="Doors">
          {g.place ? (
            <>
              <Row term="Door system place">{g.place.name}</Row>
              {g.doors.map((d) => (
                <Row key={d.id} term={d.name}>
                  {d.tracks_visits && g.tracks_visits ? "Opening it counts as a visit" : "Not counted"}
                </Row>
              ))}
            </>
          ) : (
            <Row term="Door system">Not linked to a place yet: link one on the edit page.</Row>
          )}
        </Card>
        <Card title="Other services">
          {(Object.keys(GYM_CREDENTIALS) as CredentialService[]).map((s) => {
            const set = Object.values(g.credentials[s]).filter(Boolean).length;
            const all = Object.keys(GYM_CREDENTIALS[s].fields).length;
            return (
              <Row key={s} term={GYM_CREDENTIALS[s].label}>
                {set === 0 ? "Not set" : set === all ? "Set" : `${set} of ${all} set`}
              </Row>
            );
          })}
        </Card>
      </div>
      <JoinLinks gymId={g.id} name={g.name} join={g.join} qr={qr} snippet={snippet} />
      {mayArchive ? <ArchiveForm archived={Boolean(g.archived_at)} name={g.name} /> : null}
    </div>
  );
}

/** Archive (never delete: members and payments belong to it) or restore; the API refuses the last open gym. */
function ArchiveForm({ archived, name }: { archived: boolean; name: string }) {
  return (
    <section aria-labelledby="gym-archive" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="gym-archive" className="mb-2 font-semibold">
        {archived ? "Restore this gym" : "Archive this gym"}
      </h2>
      <p className="mb-3 text-sm text-slate-700">
        {archived
          ? `${name} will be sold, listed for people to join and offered in the gym switcher again.`
          : `${name} stops being sold and listed for people to join, and leaves the gym switcher. Its members' memberships, payments and visits carry on and are kept; it can be restored at any time.`}
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value={archived ? "restore" : "archive"} />
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50">
          {archived ? `Restore ${name}` : `Archive ${name}`}
        </button>
      </Form>
    </section>
  );
}
