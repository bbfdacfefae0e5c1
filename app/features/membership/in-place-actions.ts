/**
 * Which membership actions open in place over the member page (./in-place.tsx), kept apart from the dialog so the
 * staff layout, which needs only the names, does not load the dialog's library on every page.
 */
export const IN_PLACE_ACTIONS = ["pause", "price-change", "start-now", "payment", "pif", "cancel", "door"] as const;

/** The state a link passes to ask for the dialog (a reload or a shared link has none: a page). */
export const IN_PLACE = { inPlace: true } as const;
