import { beforeAll, describe, expect, it } from "vitest";
import { guardSection } from "../../app/components/shell/nav";
import { safeRedirect } from "../../app/lib/redirect";
import { guardGuestPage, guardSignupPage, guardStaffPage, type Me } from "../../app/lib/session.server";
import { setConfigForTests } from "../../server/core/config";
import { testConfig } from "../api/harness";

beforeAll(() => setConfigForTests(testConfig()));

const staff = { is_staff: true } as Me;
const member = { is_staff: false } as Me;
const back = new Request("http://localhost:3000/members?page=2");
const signup = new Request("http://signup.localhost:3000/take-photo");

describe("navigation guards (SPEC §2)", () => {
  it("staff pages", () => {
    expect(guardStaffPage(back, { state: "anonymous" })).toBe("/login?redirect=%2Fmembers%3Fpage%3D2");
    expect(guardStaffPage(back, { state: "unverified" })).toBe("/two-factor-authentication");
    expect(guardStaffPage(back, { state: "ok", me: member })).toBe("/session-handoff");
    expect(guardStaffPage(back, { state: "ok", me: staff })).toBeNull();
  });

  it("guest pages", () => {
    expect(guardGuestPage({ state: "ok", me: staff })).toBe("/dashboard");
    expect(guardGuestPage({ state: "ok", me: member })).toBeNull();
    expect(guardGuestPage({ state: "anonymous" })).toBeNull();
  });

  it("sign-up pages", () => {
    expect(guardSignupPage(signup, { state: "anonymous" })).toBe("/");
    expect(guardSignupPage(signup, { state: "unverified" })).toBe("/verification-code?twoFactorAuth=1");
    expect(guardSignupPage(signup, { state: "ok", me: staff })).toBe("http://localhost:3000/dashboard");
    expect(guardSignupPage(signup, { state: "ok", me: member })).toBeNull();
  });
});

describe("guarded sections (SPEC §2)", () => {
  const me = (is_organisation_admin: boolean, calendar_and_messaging: boolean) =>
    ({ is_organisation_admin, current_organisation: { calendar_and_messaging } }) as Me;
  it("organisation settings are for organisation admins", () => {
    expect(guardSection("/organisation/settings", me(false, true))).toBe("/dashboard");
    expect(guardSection("/organisation/settings/billing", me(false, true))).toBe("/dashboard");
    expect(guardSection("/organisation/settings", me(true, false))).toBeNull();
  });
  it("calendar, schedules and messages are for organisations that have them", () => {
    for (const path of ["/calendar", "/recurring-schedules/3", "/messages", "/messages/12"]) {
      expect(guardSection(path, me(true, false))).toBe("/dashboard");
      expect(guardSection(path, me(false, true))).toBeNull();
    }
  });
  it("leaves every other page alone", () => {
    for (const path of ["/dashboard", "/members", "/organisation", "/calendars", "/messages-archive"]) expect(guardSection(path, me(false, false))).toBeNull();
  });
});

describe("safeRedirect", () => {
  it.each([
    ["/members?x=1", "/members?x=1"],
    ["//evil.example", "/dashboard"],
    ["/\\evil.example", "/dashboard"],
    ["https://evil.example", "/dashboard"],
    ["", "/dashboard"],
    [null, "/dashboard"],
    ["/ok\nLocation: x", "/dashboard"],
  ])("%s → %s", (input, out) => expect(safeRedirect(input)).toBe(out));
});

describe("cross-site form posts (checked before Remix)", async () => {
  const { crossSitePolicy } = await import("../../app/lib/same-origin.server");
  const post = (url: string, headers: Record<string, string>) => new Request(url, { method: "POST", headers });
  it("refuses another site's post to a page, passes our own", () => {
    expect(crossSitePolicy(post("http://localhost:3000/login", { origin: "https://evil.example" }))).toBe("refuse");
    expect(crossSitePolicy(post("http://localhost:3000/login", { "sec-fetch-site": "cross-site" }))).toBe("refuse");
    expect(crossSitePolicy(post("http://localhost:3000/login", {}))).toBe("refuse");
    expect(crossSitePolicy(post("http://localhost:3000/login", { "sec-fetch-site": "same-origin" }))).toBe("pass");
    expect(crossSitePolicy(post("http://localhost:3000/login", { origin: "http://localhost:3000" }))).toBe("pass");
  });
  it("leaves the API to its own check and opens only the sign-up form", () => {
    expect(crossSitePolicy(post("http://localhost:3000/api/login", { origin: "https://evil.example" }))).toBe("pass");
    expect(crossSitePolicy(post("http://signup.localhost:3000/?index", { origin: "https://gym.example" }))).toBe("pass-cross-origin");
    expect(crossSitePolicy(post("http://signup.localhost:3000/verification-code", { origin: "https://gym.example" }))).toBe("refuse");
    expect(crossSitePolicy(post("http://localhost:3000/", { origin: "https://gym.example" }))).toBe("refuse");
  });
  it("accepts the session handoff on the sign-up host from a back-office origin only", () => {
    const handoff = (headers: Record<string, string>) => crossSitePolicy(post("http://signup.localhost:3000/session-handoff", headers));
    expect(handoff({ origin: "http://localhost:3000", "sec-fetch-site": "cross-site" })).toBe("pass-cross-origin");
    expect(handoff({ origin: "http://127.0.0.1:3000" })).toBe("pass-cross-origin");
    expect(handoff({ origin: "https://evil.example", "sec-fetch-site": "cross-site" })).toBe("refuse");
    expect(handoff({ origin: "http://localhost:4000" })).toBe("refuse"); // another port is another origin
    expect(handoff({ origin: "http://localhost.evil.example:3000" })).toBe("refuse");
    expect(handoff({ origin: "null" })).toBe("refuse");
    expect(handoff({})).toBe("refuse");
    // Not even from the sign-up host itself: only the back-office's handoff page posts here.
    expect(handoff({ origin: "http://signup.localhost:3000", "sec-fetch-site": "same-origin" })).toBe("refuse");
    // The back-office's own /session-handoff keeps the ordinary rule.
    expect(crossSitePolicy(post("http://localhost:3000/session-handoff", { origin: "http://signup.localhost:3000" }))).toBe("refuse");
  });
});
