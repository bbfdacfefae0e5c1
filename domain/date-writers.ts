/**
 * Writers of Auckland dates and times over texts the server wrote (`withDateTexts`, domain/date-texts.ts): pure, no
 * time zone and no date library, so pages can ship them (decision 0053) and e-mails use the same words.
 */

/** Each instant's Auckland weekday, date and time ("Sun", "27 Sep 2026", "9:05 AM"), keyed by its ISO text. */
export type DateTexts = Record<string, [string, string, string]>;

/** An instant the loader did not write out: its own text, plainly wrong on the page rather than a crash. */
const missing = (text: string): [string, string, string] => ["", text, ""];

/** The writers `useDates` gives, over the texts the server wrote. */
export function dateWriters(texts: DateTexts) {
  const of = (d: string | Date) => {
    const at = new Date(d);
    return (Number.isNaN(at.getTime()) ? undefined : texts[at.toISOString()]) ?? missing(String(d));
  };
  /** 22 Nov 2026 */
  const date = (d: string | Date) => of(d)[1];
  /** 9:00 AM */
  const time = (d: string | Date) => of(d)[2];
  /** 22 Nov 2026, 9:00 AM */
  const dateTime = (d: string | Date) => `${date(d)}, ${time(d)}`;
  /** Sun 22 Nov, 9:00 AM: a session */
  const session = (d: string | Date) => `${of(d)[0]} ${date(d).split(" ").slice(0, 2).join(" ")}, ${time(d)}`;
  /** 19 – 26 Nov 2026, 29 Oct – 5 Nov 2026, 20 Dec 2026 – 3 Jan 2027: a period, saying its month and year once. */
  const range = (from: string | Date, to: string | Date) => {
    const [fd, fm, fy] = date(from).split(" ");
    const [, tm, ty] = date(to).split(" ");
    return `${fy !== ty ? date(from) : fm !== tm ? `${fd} ${fm}` : fd} – ${date(to)}`;
  };
  return { date, time, dateTime, session, range };
}
