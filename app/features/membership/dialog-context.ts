import { createContext, useContext, type ComponentType, type ReactNode } from "react";

/**
 * Inside the in-place dialog (in-place.tsx): how to leave it, and its heading (Headless UI's DialogTitle, which comes
 * with the dialog's chunk). Its own module, so the lazily loaded dialog (action-dialog.tsx) and the code that loads it
 * do not import each other.
 */
export const DialogContext = createContext<{ close: () => void; Heading: ComponentType<{ children: ReactNode }> } | null>(null);

/** Inside the dialog: the action page leaves out its breadcrumb and titles the dialog. */
export const useInDialog = () => useContext(DialogContext);
