import { ApiRequestError, type GymApi } from "../../lib/api.server";

/** A member a page was asked to preselect (?member=), or null when they are not there (gone, or never ours to see). */
export async function memberOrNull(api: GymApi, id: number | null) {
  if (!id) return null;
  return api.get("/members/:id", { params: { id } }).catch((err) => (err instanceof ApiRequestError && [403, 404].includes(err.status) ? null : Promise.reject(err)));
}
