import { Hono } from "hono";
import { failedPaymentGraceRequest, memberMailRequest, memberSelfServiceRequest, membershipTermsRequest, minimumAgeRequest, offeringPermissionsRequest, organisationNameRequest, priceFrequenciesRequest, termGraceRequest } from "../../domain/schemas/organisation";
import { webhookCallsQuery } from "../../domain/schemas/webhooks";
import { signupUrl } from "../core/config";
import { ageBypassLinks, createAgeBypassLink, revokeLink } from "../offerings/links";
import { organisationPrices } from "../offerings/read";
import { entityContext } from "../entities/context";
import {
  organisationView,
  readOrganisation,
  renameOrganisation,
  setFailedPaymentGrace,
  setMemberMail,
  setMemberSelfService,
  setMembershipTerms,
  setMinimumAge,
  setOfferingPermissions,
  setPriceFrequencies,
  setTermGrace,
} from "./settings";
import { listWebhookCalls } from "../webhooks/calls";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ownOrganisation } from "../core/guards";
import { requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

const own = ownOrganisation;
const admin = [requireStaff, requireCan("settings.write"), own] as const;
const staff = [requireStaff, own] as const;

/** The organisation's settings (SPEC §7 "Organisations"; issue 14). Rules: server/organisations/settings.ts. */
export const organisationRoutes = new Hono<ApiEnv>()
  /** GET /api/organisations/{id}: its name, offering rules, price frequencies and grace periods; any of its staff may read them. */
  .get("/organisations/:id{[0-9]+}", ...staff, async (c) => c.json({ data: organisationView(await readOrganisation(c.var.tenant)) }))
  .put("/organisations/:id{[0-9]+}", ...admin, async (c) => c.json({ data: await renameOrganisation(c.var.tenant, (await readBody(c, organisationNameRequest)).name) }))
  /** PUT …/grace-period { period, unit } (or flat or nested, SPEC §3): how long a member with a failed payment keeps access. */
  .put("/organisations/:id{[0-9]+}/grace-period", ...admin, async (c) => c.json({ data: await setFailedPaymentGrace(c.var.tenant, await readBody(c, failedPaymentGraceRequest)) }))
  .put("/organisations/:id{[0-9]+}/term-membership-grace-period", ...admin, async (c) => c.json({ data: await setTermGrace(c.var.tenant, await readBody(c, termGraceRequest)) }))
  /** PUT …/minimum-age { minimum_age }: the youngest who may join online without an age-bypass link (0: no minimum). */
  .put("/organisations/:id{[0-9]+}/minimum-age", ...admin, async (c) => c.json({ data: await setMinimumAge(c.var.tenant, (await readBody(c, minimumAgeRequest)).minimum_age) }))
  /** PUT …/member-mail { payment_receipts, signup_reminders }: a receipt per payment (on by default), one reminder to people who stopped joining (off). */
  .put("/organisations/:id{[0-9]+}/member-mail", ...admin, async (c) => c.json({ data: await setMemberMail(c.var.tenant, await readBody(c, memberMailRequest)) }))
  /** PUT …/membership-terms { text?, url? }: what members accept when they join, shown at /membership-terms on the sign-up app. */
  .put("/organisations/:id{[0-9]+}/membership-terms", ...admin, async (c) => c.json({ data: await setMembershipTerms(c.var.tenant, await readBody(c, membershipTermsRequest)) }))
  /** PUT …/member-self-service { members_may_pause, member_pause_days_per_year, members_may_cancel, member_cancel_notice_days }: all off by default. */
  .put("/organisations/:id{[0-9]+}/member-self-service", ...admin, async (c) => c.json({ data: await setMemberSelfService(c.var.tenant, await readBody(c, memberSelfServiceRequest)) }))
  .put("/organisations/:id{[0-9]+}/offering-permissions", ...admin, async (c) => c.json({ data: await setOfferingPermissions(c.var.tenant, await readBody(c, offeringPermissionsRequest)) }))
  .put("/organisations/:id{[0-9]+}/price-frequencies", ...admin, async (c) => c.json({ data: await setPriceFrequencies(c.var.tenant, await readBody(c, priceFrequenciesRequest)) }))
  /** GET …/akahu-webhooks?status=&from=&to=&page=: the open-banking provider's deliveries to this organisation. */
  .get("/organisations/:id{[0-9]+}/akahu-webhooks", ...admin, async (c) => {
    assertCan(c.var.user!, "money.read", null);
    const q = readQuery(c, webhookCallsQuery);
    return c.json({ data: await listWebhookCalls(c.var.tenant, { ...q, provider: "akahu" }) });
  })
  /** GET and POST (no body) …/age-bypass-links: links that let someone under the minimum age join on any public price. */
  .get("/organisations/:id{[0-9]+}/age-bypass-links", ...admin, async (c) => c.json({ data: { data: await ageBypassLinks(c.var.tenant, signupUrl(c.var.deps.config)) } }))
  .post("/organisations/:id{[0-9]+}/age-bypass-links", ...admin, async (c) => c.json({ data: await createAgeBypassLink(c.var.tenant, c.var.user!.row.id, signupUrl(c.var.deps.config)) }, 201))
  .delete("/organisations/:id{[0-9]+}/age-bypass-links/:linkId{[0-9]+}", ...admin, async (c) => {
    await revokeLink(c.var.tenant, pathId(c, "No such link.", "linkId"), null);
    return c.json({ data: { revoked: true } });
  })
  /** GET /api/organisations/{id}/prices: every price of the organisation, archived ones included, with its offering. */
  .get("/organisations/:id{[0-9]+}/prices", ...staff, requireCan("offerings.read"), async (c) => c.json({ data: { data: await organisationPrices(c.var.tenant, entityContext(c)) } }));
