import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";
import { DialogContext, useInDialog } from "./dialog-context";

/**
 * Headless UI's Dialog: focus kept inside, the page behind inert and kept from scrolling, Escape and a click outside
 * the panel leave the action (back to the member page). Loaded on demand (in-place.tsx, decision 0052).
 */
export default function ActionDialog({ memberId, children }: { memberId: number; children: ReactNode }) {
  const navigate = useNavigate();
  const close = () => navigate(`/members/${memberId}`, { preventScrollReset: true });
  return (
    // The dialog covers the screen (so it has a box of its own), the panel scrolls within it.
    <Dialog open onClose={close} className="fixed inset-0 z-40 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="relative flex min-h-full items-start justify-center p-4 sm:p-8">
        <DialogPanel className="w-full max-w-3xl rounded-xl bg-slate-50 p-5 shadow-xl ring-1 ring-slate-900/10">
          <DialogContext.Provider value={{ close, Heading: DialogHeading }}>{children}</DialogContext.Provider>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The dialog's heading (its accessible name): the action and the member, and a way out. */
function DialogHeading({ children }: { children: ReactNode }) {
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
