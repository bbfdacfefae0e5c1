import type { MemberDetail as Detail } from "../../../server/api/members/detail";
import type { memberCredentials, memberPayments, memberVisits, priceChangeHistory } from "../../../server/api/members/history";

/** GET /api/members/{id}: the member, and what the signed-in user may do with them. */
export type MemberDetail = Detail & { can: { edit: boolean; delete: boolean; see_money: boolean } };
export type PaymentsPage = Awaited<ReturnType<typeof memberPayments>>;
export type VisitsPage = Awaited<ReturnType<typeof memberVisits>>;
export type Credential = Awaited<ReturnType<typeof memberCredentials>>[number];
export type PriceChange = Awaited<ReturnType<typeof priceChangeHistory>>[number];
