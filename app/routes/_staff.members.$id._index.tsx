import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { capitaliseWords } from "../../domain/dates";
import { CredentialsList, PaymentsTable, PriceChanges, VisitsTable } from "../features/members/member-history";
import { MemberProfile } from "../features/members/member-profile";
import { PhotoForm } from "../features/members/photo-form";
import { StatusCard } from "../features/members/status-card";
import { ifAllowed } from "../lib/api.server";
import { memberRoute, orRefusal } from "../features/members/member-route.server";
import { pageQuery } from "../lib/params.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${data?.member.name ? capitaliseWords(data.member.name) : "Member"} · Gym Membership`,
  },
];

/** /members/{id}: profile, status card, payments, visits, door access and price changes. */
export async function loader(args: LoaderFunctionArgs) {
  const { id, api } = memberRoute(args);
  const url = new URL(args.request.url);
  const [member, payments, visits, credentials, changes] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/members/:id", { params: { id } }),
      // Money is for staff who may see it in the member's gym: null for the others.
      ifAllowed(api.get("/users/:id/payments", { params: { id }, query: { page: pageQuery(url, "payments_page") } })),
      api.get("/users/:id/visits", { params: { id }, query: { page: pageQuery(url, "visits_page") } }),
      api.get("/members/:id/access-control-credentials", { params: { id } }),
      ifAllowed(api.get("/users/:id/price-change-history", { params: { id } })),
    ]),
  );
  return { member, payments, visits, credentials: credentials.data, changes: changes?.data ?? null };
}

export default function MemberShow() {
  const { member, payments, visits, credentials, changes } = useLoaderData<typeof loader>();
  const params = new URLSearchParams(useLocation().search);
  const button = "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50";
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">{capitaliseWords(member.name)}</span>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-4">
          {member.profile_picture ? (
            <img src={member.profile_picture} alt="" width={64} height={64} className="h-16 w-16 rounded-full object-cover" />
          ) : (
            <span aria-hidden="true" className="flex h-16 w-16 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-700">
              {member.name.trim().charAt(0).toUpperCase()}
            </span>
          )}
          <div>
            <h1 className="text-2xl font-semibold">{capitaliseWords(member.name)}</h1>
            <p className="text-sm text-slate-600">{member.email}</p>
            {member.can.edit ? <PhotoForm memberId={member.id} hasPhoto={Boolean(member.profile_picture)} /> : null}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="activity" className={button}>
            Activity
          </Link>
          {member.can.edit ? (
            <Link to="edit" className={button}>
              Edit
            </Link>
          ) : null}
          {member.can.delete ? (
            <Link to="delete" className="rounded-md border border-red-300 bg-white px-3 py-2 text-sm font-semibold text-red-800 shadow-sm hover:bg-red-50">
              Delete
            </Link>
          ) : null}
        </div>
      </div>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-1">
          <StatusCard subscription={member.latest_subscription} />
          <CredentialsList credentials={credentials} />
          {changes ? <PriceChanges changes={changes} /> : null}
        </div>
        <div className="space-y-6 xl:col-span-2">
          <MemberProfile member={member} />
          {payments ? <PaymentsTable payments={payments} params={params} /> : null}
          <VisitsTable visits={visits} params={params} />
        </div>
      </div>
    </div>
  );
}