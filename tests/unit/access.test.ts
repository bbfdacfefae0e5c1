import { describe, expect, it } from "vitest";
import { accessAt, type AccessFacts } from "../../domain/access";

const now = new Date("2026-11-10T00:00:00Z");
const before = "2026-11-01T00:00:00Z";
const after = "2026-11-20T00:00:00Z";

describe("door access (domain/access.ts)", () => {
  it.each<[string, AccessFacts | null, boolean, RegExp]>([
    ["no membership", null, false, /No membership/],
    ["active", {}, true, /active and paid up/],
    ["paused now", { pause_start_at: before, pause_end_at: after }, false, /paused/],
    ["a pause that has ended", { pause_start_at: "2026-10-01T00:00:00Z", pause_end_at: before }, true, /active/],
    ["inside a grace period", { grace_period_ends_at: after }, true, /grace period lets them in until 20 Nov 2026/],
    ["a grace period past its end, before the run stops it", { grace_period_ends_at: before }, false, /grace period ended on 1 Nov 2026/],
    ["stopped: the grace period ran out unpaid", { upcoming_state: "failed" }, false, /not paid within the grace period/],
    ["not started", { upcoming_state: "upcoming" }, false, /not started/],
    ["cancelled, inside the paid period", { cancelled_at: before, current_period_end: after }, true, /paid up until 20 Nov 2026/],
    ["cancelled, after the paid period", { cancelled_at: before, current_period_end: before }, false, /cancelled/],
    ["cancelled while owing", { cancelled_at: before, current_period_end: after, grace_period_ends_at: after }, false, /owing/],
    ["paid in full, running", { pif_ends_at: after }, true, /Paid in full until 20 Nov 2026/],
    ["paid in full, ended", { pif_ends_at: before }, false, /paid-in-full membership ended on 1 Nov 2026/],
  ])("%s", (_, facts, allowed, reason) => {
    const decision = accessAt(facts, now);
    expect(decision.allowed).toBe(allowed);
    expect(decision.reason).toMatch(reason);
  });
});
