import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * The organisation the calendar's API tests book in (issue 16): calendar and messaging on, gyms North and South,
 * Ada Admin, trainers Tess and Theo at North, members Mia (push allowed) and Noah (push off); and Quiet Admin of an
 * organisation without the calendar. Every address starts with `prefix` so the files' databases never meet.
 */
export async function calendarFixture(prefix: string, options: { now?: Date } = {}) {
  const PASSWORD = "calendar passphrase";
  const env = await setup();
  const api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, ...(options.now ? { now: () => options.now! } : {}) });
  const email = (who: string) => `${prefix}${who}@example.com`;
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(env.db, { name: `${prefix}Booked Gyms`, multi_gym: true, calendar_and_messaging: true });
  const north = await makeGym(env.db, org.id, "North");
  const south = await makeGym(env.db, org.id, "South");
  const staff = async (name: string, who: string, role: "admin" | "personal_trainer", organisationId = org.id) => {
    const u = await makeUser(env.db, { name, email: email(who), password_hash: hash });
    await addStaff(env.db, u.id, organisationId, role, role === "admin" ? [] : [{ gymId: north.id, role: "personal_trainer" }]);
    return u.id;
  };
  const member = async (name: string, who: string, push: boolean) => {
    const u = await makeUser(env.db, { name, email: email(who), push_notifications: push });
    await addMember(env.db, u.id, org.id, north.id);
    return u.id;
  };
  await staff("Ada Admin", "admin", "admin");
  const tess = await staff("Tess Trainer", "tess", "personal_trainer");
  const theo = await staff("Theo Trainer", "theo", "personal_trainer");
  const mia = await member("Mia Member", "mia", true);
  const noah = await member("Noah Member", "noah", false);
  const other = await makeOrganisation(env.db, { name: `${prefix}Plain Gyms` });
  await makeGym(env.db, other.id, "Plain");
  await staff("Quiet Admin", "quiet", "admin", other.id);
  const session = (who: string) => signedIn(api, env.db, email(who), PASSWORD);
  return {
    env,
    api,
    email,
    ids: { tess, theo, mia, noah, north: north.id, south: south.id },
    admin: await session("admin"),
    tess: await session("tess"),
    theo: await session("theo"),
    quiet: await session("quiet"),
  };
}
export type CalendarFixture = Awaited<ReturnType<typeof calendarFixture>>;
