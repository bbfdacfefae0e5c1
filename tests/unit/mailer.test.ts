import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { smtpMailer } from "../../server/core/mail/mailer";
import { signInCodeMail } from "../../server/core/mail/templates";

/** The SMTP adapter against a real (local) SMTP server: what reaches it is what a mail provider would get. */
const received: { from: string; to: string[]; data: string }[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    let data = "";
    stream.on("data", (chunk) => (data += chunk));
    stream.on("end", () => {
      received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), data });
      callback();
    });
  },
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("sends mail over SMTP_URL", async () => {
  const { port } = server.server.address() as AddressInfo;
  const mailer = await smtpMailer(`smtp://127.0.0.1:${port}`, "Gym Membership <no-reply@gym.test>");
  await mailer.send(signInCodeMail("sam@example.com", "Sam", "123456"));
  expect(received).toHaveLength(1);
  expect(received[0].from).toBe("no-reply@gym.test");
  expect(received[0].to).toEqual(["sam@example.com"]);
  expect(received[0].data).toMatch(/Subject: Your sign-in code\r?\n/);
  // The code is in the body, never the subject (issue 29).
  expect(received[0].data).not.toMatch(/Subject:[^\r\n]*123456/);
});
