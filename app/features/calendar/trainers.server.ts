import type { GymApi } from "../../lib/api.server";

type Me = { id: number; name: string; permissions: string[]; current_organisation: { id: number } | null; current_gym: { id: number } | null };

/**
 * Whom this person may book for at the current gym: admins (who see the staff list) anyone working there, an
 * organisation admin included; a personal trainer only themselves.
 */
export async function trainersFor(api: GymApi, me: Me): Promise<{ id: number; name: string }[]> {
  if (!me.permissions.includes("staff.read") || !me.current_organisation) return [{ id: me.id, name: me.name }];
  const staff = await api.get("/organisations/:id/staff", { params: { id: me.current_organisation.id }, query: { status: "active" } });
  return staff.data.filter((s) => s.is_organisation_admin || s.gyms.some((g) => g.id === me.current_gym?.id)).map((s) => ({ id: s.id, name: s.name }));
}
