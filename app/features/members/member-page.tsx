import type { SerializeFrom } from "@remix-run/node";
import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as staffLayout } from "../../routes/backoffice/_staff";
import { useDates } from "../../lib/date-texts";
import { capitaliseWords } from "../../../domain/names";
import type { memberPageData } from "./member-page.server";
import { RecurringSessions } from "../calendar/recurring-sessions";
import { ManagePanel, MembershipHistory } from "../membership/manage-panel";
import { CredentialsList, PaymentsTable, PriceChanges, VisitsTable } from "./member-history";
import { MemberClassesPanel } from "./member-classes";
import { MemberProfile } from "./member-profile";
import { PhotoForm } from "./photo-form";
import { StatusCard } from "./status-card";

export type MemberPageData = SerializeFrom<typeof memberPageData>;

/**
 * The member page (/members/{id}): profile, status card, the membership's actions and history, payments, visits,
 * door access and price changes. Its own route renders it, and the member layout keeps it behind an action opened in
 * place (app/features/membership/in-place.tsx).
 */
export function MemberPage({ data }: { data: MemberPageData }) {
  const dates = useDates();
  const { member, payments, visits, credentials, changes, events, view, pifAllowed, schedule, classes } = data;
  const params = new URLSearchParams(useLocation().search);
  const shell = useRouteLoaderData<typeof staffLayout>("routes/backoffice/_staff");
  const messaging = Boolean(shell?.me.current_organisation?.calendar_and_messaging);
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
          {messaging ? (
            <Link to={`/messages?member=${member.id}`} className={button}>
              Message
            </Link>
          ) : null}
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
          <ManagePanel memberId={member.id} view={view} pif={view ? view.actions.pif : pifAllowed} door={member.can.edit} />
          {member.should_onboard && member.invited_at && member.can.edit ? (
            <form method="post" action={`/members/${member.id}/resend-invite`} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <p className="text-slate-700">Invited to set a password on {dates.dateTime(member.invited_at)}.</p>
              <button type="submit" className="mt-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 font-semibold text-slate-800 shadow-sm hover:bg-slate-50">
                Send the invitation again
              </button>
            </form>
          ) : null}
          {schedule ? <RecurringSessions schedule={schedule} memberId={member.id} /> : null}
          {classes ? <MemberClassesPanel classes={classes} /> : null}
          <CredentialsList credentials={credentials} />
          {changes ? <PriceChanges changes={changes} /> : null}
        </div>
        <div className="space-y-6 xl:col-span-2">
          <MemberProfile member={member} />
          {payments ? <PaymentsTable payments={payments} params={params} memberId={member.id} /> : null}
          <VisitsTable visits={visits} params={params} />
          <MembershipHistory events={events} />
        </div>
      </div>
    </div>
  );
}