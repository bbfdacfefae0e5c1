/**
 * A member's code at the desk and the kiosk (issue 32): eight characters of Crockford's base 32, made by the
 * database (drizzle/0044). Read as people type it: any case, with spaces or a dash, and the letters Crockford reads
 * as digits (O as 0; I and L as 1).
 */
export const MEMBER_CODE_LENGTH = 8;
const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{8}$/;

/** The code `typed` means, or null when it cannot be one. */
export function readMemberCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return CROCKFORD.test(code) ? code : null;
}

/** "K7QF-3M9P": two groups of four, easier to read out and to type. */
export const formatMemberCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
