import { z } from "zod";
import { flag, optional } from "./fields";
import { MSG } from "./messages";
import { MESSAGE_MAX, TOO_LONG } from "../messaging";

/** Messages between staff and members (issue 16): plain text, up to MESSAGE_MAX characters. */
export { MESSAGE_MAX, TOO_LONG };

const body = z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(MESSAGE_MAX, TOO_LONG);
const id = z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().positive());

/** POST /api/messaging/send: to a conversation, or to a member (their conversation, started if need be). */
export const sendRequest = z
  .object({ conversation_id: optional(id), member_id: optional(id), body })
  .refine((v) => v.conversation_id !== undefined || v.member_id !== undefined, { path: ["member_id"], message: "Choose who the message is for" });
export const memberSendRequest = z.object({ body });

export const conversationsQuery = z.object({
  search: optional(z.string().trim().max(100)),
  unread: flag,
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export const threadQuery = z.object({ conversation_id: id });
