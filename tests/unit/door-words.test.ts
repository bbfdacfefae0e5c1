import { describe, expect, it } from "vitest";
import { doorInWords, gettingInWords } from "../../domain/welcome-words";

const door = (allowed: boolean, has_credentials: boolean, door_system: boolean) => ({
  allowed,
  reason: allowed ? "Active." : "The membership is paused.",
  has_credentials,
  door_system,
});

describe("getting in, in words (issue 32)", () => {
  it("says the door lets them in only with a door system at their gym and a credential; else the desk; else the rule's reason", () => {
    expect(gettingInWords(door(true, true, true))).toBe("Your door access is on.");
    expect(gettingInWords(door(true, false, true))).toBe("Show your member code at the front desk to get in.");
    expect(gettingInWords(door(true, true, false))).toBe("Show your member code at the front desk to get in.");
    expect(gettingInWords(door(false, true, true))).toBe("Your door access is off: The membership is paused.");
  });

  it("says the same on the welcome page and in the welcome e-mail, an upcoming start with its day", () => {
    expect(doorInWords(door(true, true, true), "active", null)).toMatch(/^Your door access is on\. Open the app at the door/);
    expect(doorInWords(door(true, false, false), "active", null)).toBe("Show your member code at the front desk to get in. It is on your membership page.");
    expect(doorInWords(door(false, true, true), "upcoming", "2026-12-07")).toBe("Your door access starts on 7 Dec 2026.");
    expect(doorInWords(door(false, false, false), "upcoming", "2026-12-07")).toBe("From 7 Dec 2026, show your member code at the front desk to get in.");
    expect(doorInWords(door(false, false, false), "paused", null)).toBe("Door access: The membership is paused.");
  });
});
