import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt at OWASP's recommended cost (N=2^17, r=8, p=1). The parameters are stored in the hash,
 * so a test run may use a cheaper N (TEST_SCRYPT_LOG2N, honoured only with NODE_ENV=test) and
 * stored hashes stay verifiable if the cost is raised later.
 */
const KEYLEN = 64;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize("NFKC"), salt, KEYLEN, { ...opts, maxmem: 256 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

function costLog2() {
  const test = process.env.NODE_ENV === "test" ? Number(process.env.TEST_SCRYPT_LOG2N) : NaN;
  return Number.isInteger(test) && test >= 10 ? test : 17;
}

export async function hashPassword(password: string): Promise<string> {
  const N = 2 ** costLog2();
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N, r: 8, p: 1 });
  return `scrypt$${N}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // With no stored hash, still spend the same time so response times do not reveal which e-mails exist.
  const [scheme, n, r, p, salt, hash] = (stored ?? DUMMY).split("$");
  if (scheme !== "scrypt") return false;
  const key = await scrypt(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  const expected = Buffer.from(hash, "base64");
  return stored != null && key.length === expected.length && timingSafeEqual(key, expected);
}

const DUMMY = `scrypt$${2 ** 17}$8$1$AAAAAAAAAAAAAAAAAAAAAA==$${Buffer.alloc(KEYLEN).toString("base64")}`;

let common: Set<string> | undefined;

/** True for passwords on the common-password list (zxcvbn-ts' 49k list), compared case-insensitively. */
export async function isCommonPassword(password: string): Promise<boolean> {
  if (!common) {
    const { dictionary } = await import("@zxcvbn-ts/language-common");
    common = new Set(dictionary["passwords-common"].map((p: string) => p.toLowerCase()));
  }
  return common.has(password.toLowerCase());
}
