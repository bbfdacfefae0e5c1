import { ProviderError } from "../errors";
import { lazily } from "../lazily";
import type { DoorAccess, DoorMember, DoorProvider } from "./door-provider";

export interface KisiSettings {
  /** An API key of the organisation's Kisi account (Kisi: KISI-LOGIN <key>). */
  apiKey: string;
  /** Tests point the client at a local fake: http://127.0.0.1:port/ */
  baseURL?: string;
}

interface KisiMember {
  id: number;
  accessEnabled?: boolean;
  user?: { email?: string };
  email?: string;
}

/**
 * Doors through Kisi itself: members are found by e-mail (GET /members?query=), added when access is first turned
 * on (POST /members), and their access switched with PATCH /members/{id} { access_enabled } — Kisi's "temporarily
 * disable physical access", which keeps their role assignments and credentials. kisi-client camelises answers
 * and decamelises requests.
 */
export function kisiDoors(settings: KisiSettings): DoorProvider {
  // The client is loaded the first time it is used (../lazily.ts).
  const client = lazily(async () => {
    const { default: Kisi } = await import("kisi-client");
    const kisi = new Kisi({ baseURL: settings.baseURL ?? "https://api.kisi.io/", timeout: 15_000 });
    kisi.setLoginSecret(settings.apiKey);
    return kisi;
  });
  const asAccess = (m: KisiMember): DoorAccess => ({ externalId: String(m.id), accessEnabled: m.accessEnabled !== false });
  const call = async <T>(work: (kisi: Awaited<ReturnType<typeof client>>) => Promise<T>): Promise<T> => {
    const kisi = await client();
    try {
      return await work(kisi);
    } catch (err) {
      const status = (err as { status?: number; response?: { status?: number } }).status ?? (err as { response?: { status?: number } }).response?.status ?? 0;
      throw new ProviderError(`Kisi: ${(err as Error).message}${status ? ` (${status})` : ""}`, status === 0 || status === 429 || status >= 500);
    }
  };
  const find = async (member: DoorMember): Promise<KisiMember | null> => {
    const answer = await call((kisi) => kisi.get<KisiMember[] | { data: KisiMember[] }>("members", { query: member.email }));
    const list = Array.isArray(answer) ? answer : (answer?.data ?? []);
    const email = member.email.toLowerCase();
    return list.find((m) => (m.user?.email ?? m.email ?? "").toLowerCase() === email) ?? null;
  };
  const listOf = <T>(answer: T[] | { data: T[] } | null) => (Array.isArray(answer) ? answer : (answer?.data ?? []));
  return {
    name: "kisi",
    mode: "live",
    // Kisi: GET /places and GET /locks?place_id= (the account's buildings and their locks).
    async places() {
      const answer = await call((kisi) => kisi.get<{ id: number; name: string }[] | { data: { id: number; name: string }[] }>("places"));
      return listOf(answer).map((p) => ({ id: String(p.id), name: p.name }));
    },
    async locks(_organisationId, placeId) {
      const answer = await call((kisi) => kisi.get<{ id: number; name: string }[] | { data: { id: number; name: string }[] }>("locks", { place_id: placeId }));
      return listOf(answer).map((l) => ({ id: String(l.id), name: l.name }));
    },
    async accessOf(member) {
      const found = await find(member);
      return found ? asAccess(found) : null;
    },
    async setAccess(member, enabled) {
      const found = await find(member);
      if (!found) {
        if (!enabled) return null;
        return asAccess(await call((kisi) => kisi.post<KisiMember>("members", { member: { name: member.name, email: member.email, accessEnabled: true } })));
      }
      if (asAccess(found).accessEnabled === enabled) return asAccess(found);
      const answer = await call((kisi) => kisi.client.patch(`members/${found.id}`, { member: { accessEnabled: enabled } }));
      return asAccess({ ...found, ...(answer.data as KisiMember | null), accessEnabled: enabled });
    },
  };
}
