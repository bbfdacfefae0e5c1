import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { AnswerOf } from "../../lib/api-contract";
import { gymApi } from "../../lib/api.server";
import { orRefusal } from "../members/member-route.server";

export type StaffOptions = AnswerOf<"get", "/organisations/:id/staff/form-options">;
export type StaffMember = AnswerOf<"get", "/staff/:id">;

/** What every /staff… route starts with: the back-office host, the API client, the current organisation and the forms' options. */
export async function staffRoute(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const api = gymApi(args);
  const me = await orRefusal(args.request, api.get("/me"));
  const organisationId = me.current_organisation!.id;
  const options = await orRefusal(args.request, api.get("/organisations/:id/staff/form-options", { params: { id: organisationId } }));
  return { api, me, organisationId, options };
}

/**
 * The form's gym rows as the API takes them: SPEC §6, each gym with a role other than -1, as id plus role. The
 * schema (domain/schemas/staff.ts) drops the rest; this reads the rows out of the posted form.
 */
export function gymRows(form: FormData) {
  const rows: { id: string; role: string }[] = [];
  for (let i = 0; form.has(`gyms[${i}].id`); i++) rows.push({ id: String(form.get(`gyms[${i}].id`)), role: String(form.get(`gyms[${i}].role`) ?? "-1") });
  return rows;
}

/** Whether this user may change `s`: an organisation admin anyone; a gym admin someone working only at their gyms. */
export function mayManage(options: StaffOptions, s: StaffMember) {
  if (options.may_make_organisation_admins) return true;
  return !s.is_organisation_admin && s.gyms.every((g) => options.gyms.some((o) => o.id === g.id));
}
