import { describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { statusLabel } from "../../domain/status-label";

// Issue 32: a green "Cancelled" said nothing of why it is green; the badge says until when the member still gets in.
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
const day = (d: string) => startOfLocalDay(d);

describe("a membership's badge", () => {
  it("says until when a cancelled membership still lets the member in", () =>
    expect(statusLabel({ cancelled_at: day("2026-11-30"), current_period_end: day("2026-12-07") }, NOW)).toBe("Cancelled, access until 7 Dec"));
  it("is plain once the paid period is over, or when it was cancelled owing", () => {
    expect(statusLabel({ cancelled_at: day("2026-11-01"), current_period_end: day("2026-11-30") }, NOW)).toBe("Cancelled");
    expect(statusLabel({ cancelled_at: day("2026-11-30"), current_period_end: day("2026-12-07"), grace_period_ends_at: day("2026-12-05") }, NOW)).toBe(
      "Cancelled",
    );
  });
  it("is the state's own label otherwise", () => {
    expect(statusLabel({ current_period_end: day("2026-12-07") }, NOW)).toBe("Active");
    expect(statusLabel({ pause_start_at: day("2026-11-30"), pause_end_at: day("2026-12-14") }, NOW)).toBe("Paused");
  });
});
