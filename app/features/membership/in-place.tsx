import { useLocation, useMatches, useNavigate } from "@remix-run/react";
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { createContext, useContext, useRef, type ReactNode } from "react";
import { IN_PLACE_ACTIONS } from "./in-place-actions";

/**
 * Membership actions opened in place (issue 12): with JavaScript, an action followed from the member page's
 * Manage panel opens over the member page, in a dialog, instead of as a page of its own. It is the same route
 * (/members/{id}/pause, …) with the same loader, action and form, rendered inside the member layout's dialog; without
 * JavaScript, or opened from a link or a reload, it is the page it always was.
 */

const DialogContext = createContext<{ close: () => void } | null>(null);

/** Inside the dialog: the action page leaves out its breadcrumb and titles the dialog. */
export const useInDialog = () => useContext(DialogContext);

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

/**
 * Headless UI's Dialog: focus kept inside, the page behind inert and kept from scrolling, Escape and a click outside
 * the panel leave the action (back to the member page).
 */
export function ActionDialog({ memberId, children }: { memberId: number; children: ReactNode }) {
  const navigate = useNavigate();
  const close = () => navigate(`/members/${memberId}`, { preventScrollReset: true });
  return (
    // The dialog covers the screen (so it has a box of its own), the panel scrolls within it.
    <Dialog open onClose={close} className="fixed inset-0 z-40 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="relative flex min-h-full items-start justify-center p-4 sm:p-8">
        <DialogPanel className="w-full max-w-3xl rounded-xl bg-slate-50 p-5 shadow-xl ring-1 ring-slate-900/10">
          <DialogContext.Provider value={{ close }}>{children}</DialogContext.Provider>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The dialog's heading (its accessible name): the action and the member, and a way out. */
export function DialogHeading({ children }: { children: ReactNode }) {
  const dialog = useInDialog();
  return (
    <div className="flex items-start justify-between gap-4">
      <DialogTitle as="h1" className="text-xl font-semibold">
        {children}
      </DialogTitle>
      <button
        type="button"
        onClick={dialog?.close}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
      >
        Close
      </button>
    </div>
  );
}
