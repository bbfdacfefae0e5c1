import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatCents } from "../../../domain/money";
import { GYM_CREDENTIALS, type CredentialService } from "../../../domain/gym-credentials";
import { connectAction } from "../../features/gyms/connect.server";
import { loadGym } from "../../features/gyms/gym-route.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.gym.name ?? "Gym"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  return { gym: await loadGym(args) };
}

/** The Connect buttons: each goes to the provider's page, which sends the admin back to /{service}/callback. */
export async function action(args: ActionFunctionArgs) {
  const intent = (await readForm(args.request)).get("intent");
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
  const { gym: g } = useLoaderData<typeof loader>();
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
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Card title="Details">
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
    </div>
  );
}
