import { hmac, safeEqual } from "./crypto";

/**
 * A signed cookie that lets a browser which passed the e-mailed code skip it for 30 days,
 * for that user only. Resetting the password rotates `passwordStamp` and so voids it.
 */
export const TRUSTED_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;
export const TRUSTED_DEVICE_COOKIE = "gym_device";

export function signDevice(secret: string, userId: number, passwordStamp: string, now = new Date()) {
  const expires = now.getTime() + TRUSTED_DEVICE_MS;
  const body = `${userId}.${expires}`;
  return `${body}.${hmac(secret, `device:${body}:${passwordStamp}`)}`;
}

export function deviceTrusted(secret: string, cookie: string | undefined, userId: number, passwordStamp: string, now = new Date()) {
  if (!cookie) return false;
  // A browser may hold devices for several users: the cookie is a list.
  return cookie.split("|").some((entry) => {
    const [id, expires, sig] = entry.split(".");
    if (Number(id) !== userId || !(Number(expires) > now.getTime()) || !sig) return false;
    return safeEqual(sig, hmac(secret, `device:${id}.${expires}:${passwordStamp}`));
  });
}

/** Adds this user's entry to the cookie value, dropping expired and earlier entries for the user. */
export function addDevice(existing: string | undefined, entry: string, userId: number, now = new Date()) {
  const kept = (existing ?? "")
    .split("|")
    .filter((e) => {
      const [id, expires] = e.split(".");
      return e && Number(id) !== userId && Number(expires) > now.getTime();
    })
    .slice(-4);
  return [...kept, entry].join("|");
}
