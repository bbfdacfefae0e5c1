import type { MemberDetail } from "../../../server/api/members/detail";
import type { memberCredentials, memberPayments, memberVisits, priceChangeHistory } from "../../../server/api/members/history";

export type { MemberDetail };
export type PaymentsPage = Awaited<ReturnType<typeof memberPayments>>;
export type VisitsPage = Awaited<ReturnType<typeof memberVisits>>;
export type Credential = Awaited<ReturnType<typeof memberCredentials>>[number];
export type PriceChange = Awaited<ReturnType<typeof priceChangeHistory>>[number];
