import type { ProviderMode } from "../charge-result";

/**
 * Door access (Kisi), as the billing engine needs it (issue 11): when a member's grace period runs out unpaid their
 * access stops at the door too, and comes back when they are paid up. The door system knows members by e-mail;
 * turning a member's access off keeps their cards, fobs and phone keys, so turning it on again is instant. One
 * interface, two adapters: the sandbox (./sandbox.ts, the default: a door system of its own in the database) and
 * Kisi itself (./kisi-live.ts, on kisi-client).
 */
export interface DoorMember {
  organisationId: number;
  email: string;
  name: string;
}

export interface DoorAccess {
  /** The door system's id for the member. */
  externalId: string;
  accessEnabled: boolean;
}

/** A place of the door system (a building), and a lock (a door) in it. Ids are the door system's. */
export interface DoorPlace {
  id: string;
  name: string;
}
export type DoorLock = DoorPlace;

export interface DoorProvider {
  readonly name: "kisi";
  readonly mode: ProviderMode;
  /** Turns the member's access on or off, adding them to the door system first when they are not in it yet (only to turn it on). */
  setAccess(member: DoorMember, enabled: boolean): Promise<DoorAccess | null>;
  /** What the door system holds for the member now: null when it does not know them. */
  accessOf(member: DoorMember): Promise<DoorAccess | null>;
  /** The account's places (issue 15: each gym links one). */
  places(organisationId: number): Promise<DoorPlace[]>;
  /** A place's locks; an empty list for a place the account does not have. */
  locks(organisationId: number, placeId: string): Promise<DoorLock[]>;
}
