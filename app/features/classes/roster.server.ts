import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { orRefusal } from "../members/member-route.server";

/**
 * A class's roster in the back-office (issue 34): GET /api/classes/{id}/roster, and staff's plain forms on it: find and
 * add a member (the member's own rules answer), take one off, mark attendance, message everyone booked.
 */
const classIdOf = (args: { params: Record<string, string | undefined> }) => {
  const id = Number(args.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not found", { status: 404 });
  return id;
};

export async function loadRoster(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const id = classIdOf(args);
  const roster = await orRefusal(args.request, api.get("/classes/:id/roster", { params: { id } }));
  const q = new URL(args.request.url).searchParams.get("q")?.trim().slice(0, 100) ?? "";
  // Finding a member to add: the members list's own search, at the class's gym.
  const found = q
    ? (
        await api
          .get("/members", { query: { q, gym: String(roster.class.gym_id) } })
          .catch(() => ({ data: [] as { id: number; name: string; email: string }[] }))
      ).data.slice(0, 8)
    : [];
  return withDateTexts({ ...roster, q, found: found.map((m) => ({ id: m.id, name: m.name, email: m.email })) });
}

/** What adding someone did; a drop-in on their card was charged before the answer, so the roster says how it went. */
async function addedToast(api: ReturnType<typeof gymApi>, classId: number, made: { id: number; status: string; payment_id: number | null }, paid: string) {
  if (made.status === "waitlisted") return { summary: "Added to the waitlist" };
  if (!made.payment_id) return { summary: "Booked in" };
  if (paid !== "card") return { summary: "Booked in as a drop-in", detail: `Paid by ${paid === "cash" ? "cash" : "EFTPOS"} at the desk.` };
  const now = (await api.get("/classes/:id/roster", { params: { id: classId } })).bookings.find((b) => b.id === made.id);
  if (now?.payment?.status === "sent") return { summary: "Booked in as a drop-in", detail: "Charged to their card." };
  if (now?.payment?.status === "failed")
    return { summary: "Their card was declined", detail: `${now.payment.error ?? "The drop-in could not be charged"}: the place was not kept.`, severity: "error" as const };
  return { summary: "Booked in as a drop-in", detail: "Their card payment is still being taken." };
}

export type RosterResult = { intent: string; message: string; errors: Record<string, string[]>; body?: string; subject?: string };

export async function rosterAction(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const id = classIdOf(args);
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const here = `/classes/${id}`;
  const booking = String(form.get("booking_id") ?? "");
  try {
    if (intent === "add") {
      const paid = String(form.get("drop_in_paid") ?? "card");
      const made = await api.post("/classes/:id/bookings", { params: { id }, body: { member_id: String(form.get("member_id") ?? ""), drop_in_paid: paid } });
      return redirectWithToast(here, await addedToast(api, id, made, paid), api.headers);
    }
    if (intent === "remove") {
      const done = await api.delete("/class-bookings/:id", { params: { id: booking } });
      return redirectWithToast(here, { summary: done.late ? "Removed (a late cancellation)" : "Removed from the class" }, api.headers);
    }
    if (intent === "attended" || intent === "no_show") {
      await api.post("/class-bookings/:id/attendance", { params: { id: booking }, body: { attended: intent === "attended" } });
      return redirectWithToast(here, { summary: intent === "attended" ? "Marked attended" : "Marked as a no-show" }, api.headers);
    }
    if (intent === "message") {
      const sent = await api.post("/classes/:id/messages", {
        params: { id },
        body: { subject: String(form.get("subject") ?? ""), body: String(form.get("body") ?? "") },
      });
      return redirectWithToast(
        here,
        { summary: "Message sent", detail: `To ${sent.sent_to} ${sent.sent_to === 1 ? "member" : "members"} booked.` },
        api.headers,
      );
    }
    throw new Response("Not found", { status: 404 });
  } catch (err) {
    if (err instanceof Response) throw err;
    if (!(err instanceof ApiRequestError) || err.status === 401 || err.status >= 500) redirectForApiError(args.request, err);
    return data<RosterResult>(
      { intent, message: err.message, errors: err.errors ?? {}, body: String(form.get("body") ?? ""), subject: String(form.get("subject") ?? "") },
      { status: err.status },
    );
  }
}
