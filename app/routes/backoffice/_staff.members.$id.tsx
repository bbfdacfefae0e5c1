import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { MemberPage, type MemberPageData } from "../../features/members/member-page";
import { ActionDialog, useInPlaceAction } from "../../features/membership/in-place";
import { KeepDateTexts } from "../../lib/date-texts";
import type { DateTexts } from "../../../domain/date-writers";

/**
 * /members/{id}/…: each page on its own, except a membership action opened from the member page with JavaScript,
 * which shows over the member page in a dialog (app/features/membership/in-place.tsx). The member page's data is the
 * one its route last loaded: the dialog's own route loads what the action needs.
 */
export default function MemberLayout() {
  const memberData = useRouteLoaderData("routes/backoffice/_staff.members.$id._index") as MemberPageData | undefined;
  const behind = useRef<MemberPageData | undefined>(memberData);
  if (memberData) behind.current = memberData;
  const inPlace = useInPlaceAction();
  if (!inPlace || !behind.current) return <Outlet />;
  return (
    <ActionDialog
      memberId={behind.current.member.id}
      behind={
        // The member page's dates are written from its own data's texts: its route is no longer among the matches.
        <KeepDateTexts data={behind.current as { dateTexts?: DateTexts }}>
          <MemberPage data={behind.current} />
        </KeepDateTexts>
      }
    >
      <Outlet />
    </ActionDialog>
  );
}
