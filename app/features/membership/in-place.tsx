import { useLocation, useMatches, useNavigate } from "@remix-run/react";
import { createContext, useContext, useEffect, useId, useRef, type MouseEvent, type ReactNode } from "react";
import { IN_PLACE_ACTIONS } from "./in-place-actions";

/**
 * Membership actions opened in place (issue 12): with JavaScript, an action followed from the member page's
 * Manage panel opens over the member page, in a dialog, instead of as a page of its own. It is the same route
 * (/members/{id}/pause, …) with the same loader, action and form, rendered inside the member layout's dialog; without
 * JavaScript, or opened from a link or a reload, it is the page it always was.
 */

const DialogContext = createContext<{ close: () => void; titleId: string } | null>(null);

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
 * The browser's own modal <dialog> (showModal): it keeps focus inside, makes the page behind inert, and closes on
 * Escape (its cancel event, turned into leaving the action). A library dialog cost 16 KB of script on every member
 * page for the same; the page behind is kept from scrolling with a class while it is open.
 */
export function ActionDialog({ memberId, children }: { memberId: number; children: ReactNode }) {
  const navigate = useNavigate();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = () => navigate(`/members/${memberId}`, { preventScrollReset: true });
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    document.documentElement.classList.add("overflow-hidden");
    return () => {
      document.documentElement.classList.remove("overflow-hidden");
      if (dialog?.open) dialog.close();
    };
  }, []);
  // A click on the dim area around the panel (the dialog box itself or its centring wrapper) leaves.
  const outside = (e: MouseEvent) => {
    if (e.target === e.currentTarget || (e.target as HTMLElement).dataset.dialogWrap !== undefined) close();
  };
  return (
    // The dialog covers the screen (so it has a box of its own), the panel scrolls within it.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClick={outside}
      className="fixed inset-0 z-40 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-transparent p-4 backdrop:bg-slate-900/40 sm:p-8"
    >
      <div data-dialog-wrap="" className="relative flex min-h-full items-start justify-center">
        <div className="w-full max-w-3xl rounded-xl bg-slate-50 p-5 shadow-xl ring-1 ring-slate-900/10">
          <DialogContext.Provider value={{ close, titleId }}>{children}</DialogContext.Provider>
        </div>
      </div>
    </dialog>
  );
}

/** The dialog's heading: the action and the member, and a way out. */
export function DialogHeading({ children }: { children: ReactNode }) {
  const dialog = useInDialog();
  return (
    <div className="flex items-start justify-between gap-4">
      <h1 id={dialog?.titleId} className="text-xl font-semibold">
        {children}
      </h1>
      <button type="button" onClick={dialog?.close} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-50">
        Close
      </button>
    </div>
  );
}
