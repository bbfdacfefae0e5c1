/** The loaders' side of the page dates (decision 0053): domain/date-texts.ts, shared with the members' e-mails. */
export { withDateTexts, type DateTexts } from "../../domain/date-texts";
