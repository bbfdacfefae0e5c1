/**
 * Member imports (issue 15): what a file from another gym system may hold, how its columns are guessed, and how one
 * row becomes a member — pure, so the dry run and the import judge every row the same way. IMPORTS.md (shared) says
 * what the common systems export: names in one column or two, dates day-first, ISO or (rarely here) month-first,
 * headers in camelCase, snake_case or Title Case, plan names that the person matches to our prices.
 */
export const IMPORT_FIELDS = {
  first_name: "First name",
  last_name: "Last name",
  name: "Full name",
  email: "E-mail",
  mobile_number: "Mobile number",
  dob: "Date of birth",
  address: "Address",
  suburb: "Suburb",
  city: "City",
  post_code: "Post code",
  emergency_contact_name: "Emergency contact",
  emergency_contact_number: "Emergency contact's number",
  notes: "Notes",
  tags: "Tags",
  plan: "Membership plan",
  status: "Member status",
  joined_on: "Joined on",
} as const;
export type ImportField = keyof typeof IMPORT_FIELDS;
/** A column's place in the member: a field, or nothing. */
export type ColumnTarget = ImportField | "ignore";

/** Header spellings of the common systems, squashed (lower case, letters and digits only). */
const ALIASES: Record<ImportField, string[]> = {
  first_name: ["firstname", "first", "givenname", "forename", "givennames"],
  last_name: ["lastname", "last", "surname", "familyname"],
  name: ["name", "fullname", "membername", "clientname", "customername", "contactname"],
  email: ["email", "emailaddress", "mail", "memberemail", "clientemail"],
  mobile_number: ["mobile", "mobilephone", "mobilenumber", "cell", "cellphone", "phone", "phonenumber", "mobileno"],
  dob: ["dob", "dateofbirth", "birthdate", "birthday", "birthdt"],
  address: ["address", "addressline1", "address1", "street", "streetaddress"],
  suburb: ["suburb", "addressline2", "address2"],
  city: ["city", "town", "towncity"],
  post_code: ["postcode", "postalcode", "zip", "zipcode", "postcodezip"],
  emergency_contact_name: ["emergencycontact", "emergencycontactname", "emergencyname"],
  emergency_contact_number: ["emergencycontactnumber", "emergencycontactphone", "emergencyphone", "emergencynumber"],
  notes: ["notes", "note", "comments", "comment", "membernotes"],
  tags: ["tags", "tag", "labels", "groups"],
  plan: ["plan", "membership", "membershiptitle", "membershipname", "membershipplan", "membershiptype", "product", "contract", "package"],
  status: ["status", "membershipstatus", "memberstatus", "clientstatus", "customerstatus", "accountstatus", "contractstatus", "subscriptionstatus", "state", "membershipstate"],
  joined_on: [
    "joined",
    "joineddate",
    "joindate",
    "datejoined",
    "joinedon",
    "joiningdate",
    "startdate",
    "membershipstartdate",
    "membershipstart",
    "memberstartdate",
    "contractstartdate",
    "membersince",
    "created",
    "createdat",
    "signupdate",
  ],
};
const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, "");
const BY_ALIAS = new Map(Object.entries(ALIASES).flatMap(([field, names]) => names.map((n) => [n, field as ImportField])));

/** Each column's field, where its header names one the way common exports do; each field taken by its first column. */
export function guessMapping(headers: string[]): ColumnTarget[] {
  const taken = new Set<ImportField>();
  return headers.map((h) => {
    const field = BY_ALIAS.get(squash(h));
    if (!field || taken.has(field)) return "ignore";
    taken.add(field);
    return field;
  });
}

/** Checks a mapping the person chose: known targets, and no field twice. */
export function mappingProblem(mapping: ColumnTarget[]): string | null {
  const seen = new Set<string>();
  for (const m of mapping) {
    if (m === "ignore") continue;
    if (!(m in IMPORT_FIELDS)) return "Choose a member field or Ignore for each column";
    if (seen.has(m)) return `${IMPORT_FIELDS[m]} is chosen for two columns`;
    seen.add(m);
  }
  if (!seen.has("email")) return "Choose the column that holds the e-mail address";
  if (!seen.has("name") && !seen.has("first_name") && !seen.has("last_name")) return "Choose the column or columns that hold the name";
  return null;
}

/** How the file writes dates. New Zealand writes the day first; month-first is chosen only on evidence, and shown. */
export const DATE_ORDERS = { dmy: "Day first (31/12/1990)", mdy: "Month first (12/31/1990)", ymd: "Year first (1990-12-31)" } as const;
export type DateOrder = keyof typeof DATE_ORDERS;

const DATE = /^\s*(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:[ T].*)?$/;

/** The order the sample dates fit: year first if they start with a year; month first only if a middle part is over 12. */
export function guessDateOrder(samples: string[]): DateOrder {
  let yearFirst = 0;
  let dayFirstEvidence = false;
  let monthFirstEvidence = false;
  for (const s of samples) {
    const m = DATE.exec(s);
    if (!m) continue;
    if (m[1].length === 4) yearFirst++;
    else if (Number(m[1]) > 12) dayFirstEvidence = true;
    else if (Number(m[2]) > 12) monthFirstEvidence = true;
  }
  if (yearFirst && !dayFirstEvidence && !monthFirstEvidence) return "ymd";
  return monthFirstEvidence && !dayFirstEvidence ? "mdy" : "dmy";
}

/** A date as yyyy-mm-dd, or null when the text is not a real date in that order. Two-digit years: 00–29 are 2000s. */
export function parseDate(text: string, order: DateOrder): string | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const parts = [m[1], m[2], m[3]];
  const [written, mo, d] = m[1].length === 4 || order === "ymd" ? [parts[0], parts[1], parts[2]] : order === "mdy" ? [parts[2], parts[0], parts[1]] : [parts[2], parts[1], parts[0]];
  const y = written.length === 2 ? (Number(written) < 30 ? "20" : "19") + written : written;
  if (y.length !== 4) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${y}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * A member's state in the old system, as our states name it (domain/subscription.ts): active, paused (what other
 * systems call frozen, on hold or suspended) or cancelled (inactive, expired, terminated; Fitness GM's
 * `no_membership`). An import writes no subscription (decision 0029: it has no payment details), so the state decides
 * what the import does instead: an active or paused member joins on their plan's price when they set up payment; a
 * cancelled one is kept as a former member, with no price to join on, and is not invited. Paused and cancelled
 * members carry a tag saying so (IMPORTED_STATE_TAGS), so staff can find them in the members list.
 */
export const IMPORTED_STATES = { active: "Active", paused: "Paused (frozen)", cancelled: "Cancelled" } as const;
export type ImportedState = keyof typeof IMPORTED_STATES;
export const IMPORTED_STATE_TAGS = { paused: "imported as paused", cancelled: "imported as cancelled" } as const;

/** Status words of the common systems, squashed as headers are (ACTIVE, On Hold, on_hold, Canceled…). */
const STATE_WORDS: Record<ImportedState, string[]> = {
  active: ["active", "current", "live", "ongoing"],
  paused: ["paused", "pause", "frozen", "freeze", "onfreeze", "onhold", "hold", "suspended", "suspension"],
  cancelled: ["cancelled", "canceled", "cancel", "inactive", "expired", "terminated", "ended", "lapsed", "former", "nomembership"],
};
const STATE_BY_WORD = new Map(Object.entries(STATE_WORDS).flatMap(([state, words]) => words.map((w) => [w, state as ImportedState])));

/** A status cell's state, or null when it is none of the words we know (the row is reported, never guessed). */
export const readState = (text: string): ImportedState | null => STATE_BY_WORD.get(squash(text)) ?? null;

/** A price a plan name may be matched to, as GET /api/imports/{id}/prices answers it. */
export interface PlanPrice {
  id: number;
  offering: string;
  amount: number;
  billing_frequency: string;
}

/** Plan names that mean "no membership" (Fitness GM gives an inactive member the plan `no_membership`). */
const NO_PLAN = new Set(["nomembership", "nomembershipyet", "noplan", "none", "na", "nil"]);
/** Words a plan name adds to its offering's name that say nothing about which offering it is. */
const FILLER = new Set(["membership", "member", "members", "plan", "package", "subscription", "pass", "the", "a", "per", "for"]);
const FREQUENCY_WORDS: Record<string, string> = {
  daily: "daily",
  day: "daily",
  weekly: "weekly",
  week: "weekly",
  wk: "weekly",
  pw: "weekly",
  fortnightly: "fortnightly",
  fortnight: "fortnightly",
  monthly: "monthly",
  month: "monthly",
  mth: "monthly",
  pm: "monthly",
  quarterly: "quarterly",
  quarter: "quarterly",
  yearly: "yearly",
  year: "yearly",
  annual: "yearly",
  annually: "yearly",
  pif: "one_off",
};

/** Edits (insert, delete, change a letter) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/**
 * The price a plan name most likely is, for the person to confirm: 0 for a name meaning no membership; the one price of
 * the offering the name is (its words, less filler such as "Membership", equal to the offering's name, or a typo or
 * two away), narrowed by a frequency ("Weekly") or amount ("$25") the name gives. Null when no offering fits, or
 * several prices do: a guess the person would have to undo is worse than none.
 */
export function guessPlanPrice(plan: string, prices: PlanPrice[]): number | null {
  if (NO_PLAN.has(squash(plan))) return 0;
  const words = plan.toLowerCase().split(/[^a-z0-9$.]+/).filter(Boolean);
  let frequency: string | null = null;
  let cents: number | null = null;
  const core: string[] = [];
  for (const w of words) {
    const money = /^\$?(\d+(?:\.\d{1,2})?)$/.exec(w);
    if (FREQUENCY_WORDS[w]) frequency = FREQUENCY_WORDS[w];
    else if (money && (w.startsWith("$") || money[1].includes("."))) cents = Math.round(Number(money[1]) * 100);
    else if (!FILLER.has(w)) core.push(w);
  }
  const whole = squash(plan);
  const name = squash(core.join(""));
  const fits = (offering: string) => {
    const o = squash(offering);
    if (o === whole || o === name) return true;
    // A typo or two in a longer name ("Anytme"), never a different short word ("Gold" is not "Good").
    return name.length >= 6 && editDistance(o, name) <= Math.floor(name.length / 6);
  };
  let candidates = prices.filter((p) => fits(p.offering));
  if (frequency) candidates = candidates.filter((p) => p.billing_frequency === frequency);
  if (cents !== null) candidates = candidates.filter((p) => p.amount === cents);
  return candidates.length === 1 ? candidates[0].id : null;
}

/** A member as a row makes them. */
export interface ImportedMember {
  email: string;
  name: string;
  mobile_number: string | null;
  dob: string | null;
  address: string | null;
  suburb: string | null;
  city: string | null;
  post_code: string | null;
  emergency_contact_name: string | null;
  emergency_contact_number: string | null;
  notes: string | null;
  tags: string[];
  /** The price they join on when they choose how to pay (null: no membership yet). */
  price_id: number | null;
  joined_on: string | null;
  /** From the status column; active without one. */
  state: ImportedState;
}

export type RowVerdict = { ok: true; member: ImportedMember } | { ok: false; reason: string };

/** How a row is read: each column's target, the dates' order, and each plan name's price (0: no membership). */
export interface Reading {
  mapping: ColumnTarget[];
  dateOrder: DateOrder;
  plans: Record<string, number>;
  today: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const clip = (v: string | undefined, max: number) => {
  const t = (v ?? "").trim();
  return t ? t.slice(0, max) : null;
};
/** "smith" → "Smith", keeping names already written with capitals as they are. */
const tidyName = (n: string) => (n === n.toLowerCase() || n === n.toUpperCase() ? n.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase()) : n);

/** One row of the file: the member it makes, or why it cannot. */
export function readRow(cells: string[], r: Reading): RowVerdict {
  const v: Partial<Record<ImportField, string>> = {};
  for (let i = 0; i < r.mapping.length; i++) {
    const target = r.mapping[i];
    if (target !== "ignore") v[target] = cells[i]?.trim() ?? "";
  }
  const email = (v.email ?? "").toLowerCase();
  if (!email) return { ok: false, reason: "No e-mail address" };
  if (!EMAIL.test(email) || email.length > 254) return { ok: false, reason: `Not a valid e-mail address: ${v.email}` };
  // Each part tidied on its own: "McKenzie" stays, "DE VRIES" becomes "De Vries".
  const name = (v.name ? tidyName(v.name) : [v.first_name, v.last_name].filter(Boolean).map((p) => tidyName(p!)).join(" ")).replace(/\s+/g, " ").trim();
  if (!name) return { ok: false, reason: "No name" };
  if (name.length > 100) return { ok: false, reason: "The name is longer than 100 characters" };
  let dob: string | null = null;
  if (v.dob) {
    dob = parseDate(v.dob, r.dateOrder);
    if (!dob) return { ok: false, reason: `Date of birth is not a date: ${v.dob}` };
    if (dob > r.today || dob < "1900-01-01") return { ok: false, reason: `Date of birth is not believable: ${v.dob}` };
  }
  let joinedOn: string | null = null;
  if (v.joined_on) {
    joinedOn = parseDate(v.joined_on, r.dateOrder);
    if (!joinedOn) return { ok: false, reason: `Joined date is not a date: ${v.joined_on}` };
    if (joinedOn > r.today) return { ok: false, reason: `Joined date is in the future: ${v.joined_on}` };
  }
  let state: ImportedState = "active";
  if (v.status !== undefined) {
    const read = readState(v.status);
    if (!read) return { ok: false, reason: v.status ? `Unknown membership status: ${v.status} (use Active, Frozen or Cancelled)` : "No membership status" };
    state = read;
  }
  let price: number | null = null;
  // A cancelled member joins on no price, so their plan needs no match.
  if (v.plan && state !== "cancelled") {
    const mapped = r.plans[v.plan];
    if (mapped === undefined) return { ok: false, reason: `Unknown price: ${v.plan}` };
    price = mapped || null;
  }
  return {
    ok: true,
    member: {
      email,
      name,
      mobile_number: clip(v.mobile_number, 30),
      dob,
      address: clip(v.address, 200),
      suburb: clip(v.suburb, 100),
      city: clip(v.city, 100),
      post_code: clip(v.post_code, 20),
      emergency_contact_name: clip(v.emergency_contact_name, 100),
      emergency_contact_number: clip(v.emergency_contact_number, 30),
      notes: clip(v.notes, 2000),
      tags: [...new Set([...(v.tags ?? "").split(/[,;|]/).map((t) => t.trim().toLowerCase().slice(0, 40)).filter(Boolean).slice(0, 20), ...(state === "active" ? [] : [IMPORTED_STATE_TAGS[state]])])],
      price_id: price,
      joined_on: joinedOn,
      state,
    },
  };
}

/** A dry run's answer: what the import would do, before anything is written. */
export interface ImportSummary {
  total: number;
  create: number;
  update: number;
  /** Rows naming someone another organisation holds: invited to join, added when they accept (decision 0048). */
  invite?: number;
  unchanged: number;
  errors: number;
  /** The first rows in error (all of them are in the rejected rows file after the import). */
  error_rows: { line: number; email: string; reason: string }[];
  /** Rows in each state, when a column gives the membership status. */
  states?: Record<ImportedState, number>;
  /** The file's plan names, how many rows each, and the price each is matched to (null: not yet). */
  plans: { name: string; count: number; price_id: number | null }[];
  /** The first good rows as they will be read: dates shown parsed, so a wrong date order is seen. */
  sample: { line: number; member: ImportedMember }[];
  checked_at: string;
}
export const SHOWN_ERROR_ROWS = 200;
