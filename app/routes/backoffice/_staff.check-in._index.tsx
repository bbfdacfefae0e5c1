import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { checkInAction, loadCheckIn } from "../../features/check-in/check-in.server";
import { CheckInPage } from "../../features/check-in/check-in-page";
import type { loader as staffLoader } from "./_staff";
import { revalidateUnlessInPlace } from "../../lib/in-place";

export const meta: MetaFunction = () => [{ title: "Check-in · Gym Membership" }];

/** /check-in (issue 32): find a member at the desk and check them in at the current gym. */
export const loader = (args: LoaderFunctionArgs) => loadCheckIn(args);
export const action = (args: ActionFunctionArgs) => checkInAction(args);

/** A check-in answered in place reloads nothing (lib/in-place.ts). */
export const shouldRevalidate = revalidateUnlessInPlace;

export default function CheckIn() {
  const d = useLoaderData<typeof loader>()!;
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  return <CheckInPage gym={staff?.me.current_gym?.name ?? null} q={d.q} found={d.found} result={d.result} checkInKey={d.key} />;
}
