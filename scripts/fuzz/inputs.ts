/** The fuzzer's inputs: a seeded random source and the odd values, bodies and query strings it sends. */

/** mulberry32: small, fast and reproducible from FUZZ_SEED. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof seededRandom>;

const MB = "x".repeat(1024 * 1024);

/** Text no form expects: NUL, lone surrogates, direction marks, emoji, combining marks, SQL and markup, huge. */
export const ODD_STRINGS = [
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "\ud800",
  "x\udfffy",
  "\u202eevil\u202c",
  "\u200f\u200e",
  "💪🏽🏋️‍♀️",
  "𝕏𝕐",
  "\u200b\ufeff",
  "e\u0301\u0301\u0301",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "..%2F..%2F",
  "%00",
  "%",
  "NaN",
  "Infinity",
  "-0",
  "1e30",
  "2147483648",
  "-1",
  "0",
  "9".repeat(40),
  "true",
  "null",
  "[]",
  "{}",
  "\r\n\t",
  "member@example.com",
  "trainer@example.com",
  "nobody@example.org",
  "a@b",
  "2026-02-30",
  "0000-00-00",
  // Days the schemas once let through to a 500 (issue 29 L1): outside 1900–2200, or 29 February in a common year.
  "9999-12-31",
  "1000-01-01",
  "2023-02-29",
  "1899-12-31",
  "2201-01-01",
  "9999-12-31T00:00:00Z",
  "1000-01-01T00:00:00+13:00",
  // Formula cells for the exports (issue 29 M2).
  "-1+2",
  "+(1)",
  "- 1",
  "+64 21 555 0123",
  "y".repeat(10_000),
];

/** A value for a field: usually an odd string, sometimes a wrong type, an out-of-range number or a huge string. */
export function oddValue(r: Rng, depth = 0): unknown {
  const roll = r.next();
  if (roll < 0.55) return r.pick(ODD_STRINGS);
  if (roll < 0.75) return r.pick([0, -1, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 1, 1e30, -1e30, 1.5, 3]);
  if (roll < 0.8) return r.pick([true, false, null]);
  if (roll < 0.88 && depth < 3) return [oddValue(r, depth + 1), oddValue(r, depth + 1)];
  if (roll < 0.95 && depth < 3) return { [r.pick(["a", "__proto__", "constructor", "\u0000"])]: oddValue(r, depth + 1) };
  if (roll < 0.97) return MB;
  return "valid text";
}

/** Some of the known fields with odd values, and now and then an unknown one. */
export function oddFields(r: Rng, names: string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const count = 1 + r.int(6);
  for (let i = 0; i < count; i++) fields[r.chance(0.9) ? r.pick(names) : r.pick(["__proto__", "x".repeat(300), "a\u0000", "\ud800", "💪"])] = oddValue(r);
  return fields;
}

/** Percent-encodes like a browser, lone surrogates included (as the bytes a careless client would send). */
export function formEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (ch) => (ch.length === 1 && ch >= "\ud800" && ch <= "\udfff" ? "%ED%A0%80" : encodeURIComponent(ch)));
  }
}

const textOf = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v) ?? "");

export function urlEncoded(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as const) : [[k, v] as const]))
    .map(([k, v]) => `${formEncode(k)}=${formEncode(textOf(v))}`)
    .join("&");
}

export type Body = { contentType?: string; body?: Buffer; what: string };

const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

function multipart(r: Rng, fields: Record<string, unknown>, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "%22")}"\r\n\r\n${textOf(v)}\r\n`));
  }
  const file = r.pick([PNG_1x1, Buffer.from("not an image"), Buffer.alloc(0), Buffer.concat([PNG_1x1.subarray(0, 20), Buffer.alloc(100, 0xff)]), Buffer.from(MB)]);
  const filename = r.pick(["a.png", "", "\u202egnp.exe", "a\u0000.png", "../../x.png", "💪.webp", "y".repeat(1000)]);
  const type = r.pick(["image/png", "image/jpeg", "text/html", "application/octet-stream", ""]);
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n`), file, Buffer.from("\r\n"));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** A request body: JSON, a form, multipart (good and broken), malformed, mislabelled or missing. */
export function oddBody(r: Rng, names: string[]): Body {
  // Now and then the fields a form must have are valid, so the odd ones get past the first check to the database.
  const fields = { ...(r.chance(0.3) ? { name: "Fuzz Member", email: `fuzz.${r.int(1e6)}@example.org` } : {}), ...oddFields(r, names) };
  const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? "null");
  switch (r.int(12)) {
    case 0:
    case 1:
    case 2:
      return { contentType: "application/json", body: json(fields), what: `JSON ${describe(fields)}` };
    case 3:
    case 4:
      return { contentType: "application/x-www-form-urlencoded", body: Buffer.from(urlEncoded(fields)), what: `form ${describe(fields)}` };
    case 5: {
      const b = "----fuzz" + r.int(1e9);
      return { contentType: `multipart/form-data; boundary=${b}`, body: multipart(r, fields, b), what: `multipart ${describe(fields)} + file` };
    }
    case 6: {
      const bad = r.pick([
        ["no boundary", "multipart/form-data", multipart(r, fields, "b")],
        ["wrong boundary", "multipart/form-data; boundary=other", multipart(r, fields, "b")],
        ["unterminated", "multipart/form-data; boundary=b", Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc')],
        ["empty boundary", "multipart/form-data; boundary=", Buffer.from("--\r\n\r\n")],
        ["garbage", "multipart/form-data; boundary=b", Buffer.from("\u0000\u0001garbage")],
      ] as const);
      return { contentType: bad[1], body: bad[2], what: `malformed multipart (${bad[0]})` };
    }
    case 7: {
      const bad = r.pick(['{"a":', '{"a":1,}', "[1,2]", '"text"', "null", "NaN", "{".repeat(5000), "[".repeat(40_000), "\ufeff{}", "{\"email\":\"\\ud800\"}", '{"__proto__":{"x":1}}', "\u0000"]);
      return { contentType: "application/json", body: Buffer.from(bad), what: `malformed JSON ${describe(bad)}` };
    }
    case 8: {
      const type = r.pick(["text/plain", "application/xml", "application/json; charset=utf-16", "application/x-www-form-urlencoded; charset=utf-16", "image/png", "*/*", "multipart/mixed", ";;;"]);
      return { contentType: type, body: Buffer.from(urlEncoded(fields)), what: `form sent as ${type}` };
    }
    case 9:
      return { body: Buffer.from(urlEncoded(fields)), what: "form without Content-Type" };
    case 10:
      return { contentType: "application/x-www-form-urlencoded", body: Buffer.from(r.pick(["%zz=1", "a=%E0%A4%A", "=&=&&", "a".repeat(70_000), "%ED%A0%80=%ED%A0%80"])), what: "malformed form" };
    default:
      return { contentType: r.pick(["application/json", "application/x-www-form-urlencoded", undefined]), what: "no body" };
  }
}

/** An odd query string: known names with odd values, repeated keys, broken percent-escapes. */
export function oddQuery(r: Rng, names: string[]): string {
  if (r.chance(0.2)) return "";
  if (r.chance(0.1)) return "?" + r.pick(["%", "%zz", "a=%E0%A4%A", "&&&", "=", "a=1&a=2&a=%00", "_data=routes%2Froot", "index"]);
  const fields = oddFields(r, [...names, "page", "weeks", "payments_page", "visits_page", "redirect", "token", "twoFactorAuth", "gym"]);
  // Node refuses request lines over 16 KB (431) before any of our code runs: stay under that, but long.
  return ("?" + urlEncoded(fields)).slice(0, 1 + r.int(12_000)).replace(/%[0-9A-F]?$/i, "");
}

/** A path parameter: a real id, another organisation's, or one no database would hold. */
export function oddId(r: Rng, valid: number[], foreign: number[]): string {
  const roll = r.next();
  if (roll < 0.35 && valid.length) return String(r.pick(valid));
  if (roll < 0.5 && foreign.length) return String(r.pick(foreign));
  return r.pick(["0", "-1", "2147483647", "2147483648", "1e30", "99999999999999999999", "x", "..%2F", "..%2Forganisations%2F2%2Fswitch%3F", "%00", "1.5", "%F0%9F%92%AA", "%ED%A0%80"]);
}

/** A short, printable description of an input for the report. */
export function describe(v: unknown): string {
  const text = typeof v === "string" ? v : JSON.stringify(v, (_k, x) => (typeof x === "string" && x.length > 40 ? `${x.slice(0, 12)}…(${x.length} chars)` : x)) ?? String(v);
  const shown = text.length > 120 ? `${text.slice(0, 120)}…(${text.length} chars)` : text;
  // eslint-disable-next-line no-control-regex
  return JSON.stringify(shown).slice(1, -1).replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A cookie header no browser of ours would send: forged, truncated, badly escaped or oversized values. */
export function oddCookies(r: Rng, names: string[]): string {
  const value = () =>
    r.pick(["", "x", "%", "%zz", "%E0%A4%A", "a.b.c", "eyJ0b2FzdCI6MX0%3D.forged", "=====", "\"quoted\"", "a;b", "z".repeat(3000), "..%2F", "%00", "null", "undefined"]);
  const count = 1 + r.int(3);
  return Array.from({ length: count }, () => `${r.pick(names)}=${value()}`).join("; ");
}
