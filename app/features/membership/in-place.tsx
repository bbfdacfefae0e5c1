import { useLocation, useMatches } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { IN_PLACE_ACTIONS } from "./in-place-actions";

/**
 * Membership actions opened in place (issue 12): with JavaScript, an action followed from the member page's
 * Manage panel opens over the member page, in a dialog, instead of as a page of its own. It is the same route
 * (/members/{id}/pause, …) with the same loader, action and form, rendered inside the member layout's dialog; without
 * JavaScript, or opened from a link or a reload, it is the page it always was.
 */

export { DialogContext, useInDialog } from "./dialog-context";

/**
 * Whether the current action is shown in place: asked for by the link that opened it, and kept while the dialog's
 * own form posts (previewing changes the location and drops its state) until the action is left.
 */
export function useInPlaceAction(): boolean {
  const matches = useMatches();
  const location = useLocation();
  const leaf = matches[matches.length - 1]?.id ?? "";
  const action = IN_PLACE_ACTIONS.some((a) => leaf === `routes/backoffice/_staff.members.$id.${a}`);
  const asked = (location.state as { inPlace?: boolean } | null)?.inPlace === true;
  const held = useRef(false);
  if (!action) held.current = false;
  else if (asked) held.current = true;
  return action && held.current;
}

// Headless UI's Dialog is a chunk of its own (decision 0052), fetched when a link that opens an action in place is about
// to be followed (preloadActionDialog), or at the latest when the action opens in place.
type DialogModule = typeof import("./action-dialog");
let dialogModule: DialogModule | undefined;
const loadDialog = () => import("./action-dialog").then((m) => (dialogModule = m));
export const preloadActionDialog = () => void loadDialog().catch(() => undefined);

/**
 * The member page (`behind`) with the action (`children`) over it in Headless UI's Dialog (action-dialog.tsx). Until
 * the dialog's code has come the member page stays alone: the action's form is mounted once, in the dialog, so nothing
 * typed into it is lost by a swap. Should the code not come, the action is the page it is without JavaScript.
 */
export function ActionDialog({ memberId, behind, children }: { memberId: number; behind: ReactNode; children: ReactNode }) {
  const [loaded, setLoaded] = useState<DialogModule | "failed" | undefined>(dialogModule);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loadDialog().then(
      (m) => live && setLoaded(m),
      () => live && setLoaded("failed"),
    );
    return () => {
      live = false;
    };
  }, [loaded]);
  if (loaded === "failed") return <>{children}</>;
  if (!loaded) return <>{behind}</>;
  return (
    <>
      {behind}
      <loaded.default memberId={memberId}>{children}</loaded.default>
    </>
  );
}
