import { describe, expect, it } from "vitest";
import { nextSignupStep, signupRedirect } from "../../domain/signup";

// SPEC §2's guard for sign-up steps: the next unfinished step; nobody skips ahead; done steps may be revisited.
const fresh = { membership_confirmed: false, profile_picture: null, payment_types: [] };
const photographed = { ...fresh, profile_picture: "12" };
const paying = { ...photographed, payment_types: [{ id: 1 }] };
const joined = { ...paying, membership_confirmed: true };

describe("the sign-up steps", () => {
  it.each([
    [fresh, "take-photo"],
    [photographed, "choose-payment-method"],
    [paying, "confirm-subscription"],
    [joined, "welcome-to-gym"],
    [{ ...fresh, membership_confirmed: true }, "welcome-to-gym"],
  ] as const)("%o goes next to %s", (me, step) => expect(nextSignupStep(me)).toBe(step));

  it.each([
    ["/take-photo", fresh, null],
    ["/choose-payment-method", fresh, "/take-photo"],
    ["/card-details", fresh, "/take-photo"],
    ["/confirm-subscription", photographed, "/choose-payment-method"],
    ["/welcome-to-gym", paying, "/confirm-subscription"],
    ["/take-photo", paying, null],
    ["/choose-payment-method", paying, null],
    ["/card-connected", paying, null],
    ["/confirm-subscription", paying, null],
    ["/take-photo", joined, "/welcome-to-gym"],
    ["/confirm-subscription", joined, "/welcome-to-gym"],
    ["/welcome-to-gym", joined, null],
    // Changing how a joined member pays goes through the same provider pages (issue 31).
    ["/card-details", joined, null],
    ["/direct-debit", joined, null],
    ["/bank-account-connected", joined, null],
    ["/", paying, "/confirm-subscription"],
  ] as const)("%s for %o: %s", (path, me, to) => expect(signupRedirect(path, me)).toBe(to));
});
