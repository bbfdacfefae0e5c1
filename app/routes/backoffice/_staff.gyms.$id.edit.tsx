import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GYM_CREDENTIALS, type CredentialService } from "../../../domain/gym-credentials";
import { gymDetailsForm } from "../../../domain/schemas/gyms";
import { zodErrors } from "../../../domain/schemas/fields";
import { FileSetting, SelectSetting, SettingsSection, SwitchSetting, TextAreaSetting, TextSetting } from "../../components/settings-sections";
import { orRefusal } from "../../features/members/member-route.server";
import { gymRoute, loadGym } from "../../features/gyms/gym-route.server";
import { formOn, formText, SectionInvalid, settingsAction, type Section } from "../../lib/settings-action.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Edit ${data?.gym.name ?? "gym"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const gym = await loadGym(args);
  const { api } = gymRoute(args);
  const me = await orRefusal(args.request, api.get("/me"));
  const organisationId = me.current_organisation!.id;
  const doorSystem = await orRefusal(args.request, api.get("/organisations/:id/access-control/integration", { params: { id: organisationId } }));
  const places = doorSystem.connected ? (await orRefusal(args.request, api.get("/organisations/:id/access-control/places", { params: { id: organisationId } }))).data : [];
  return { gym, organisationId, doorSystem, places, mayConnect: me.is_organisation_admin };
}

const DETAILS = ["name", "address", "price_change_notification_reply_to", "break_fee_percentage", "card_surcharge_percent", "card_surcharge_fixed", "general_card_surcharge_text"];
const CONFIG_PATH = { branch: "/gyms/:id/branch-config", akahu: "/gyms/:id/akahu-config", onesignal: "/gyms/:id/onesignal-config" } as const;

const credentialSection = (service: CredentialService): Section<number> => ({
  save: (api, id, f) =>
    api.put(CONFIG_PATH[service], { params: { id }, body: { ...Object.fromEntries(Object.keys(GYM_CREDENTIALS[service].fields).map((k) => [k, formText(f, k)])), clear: formOn(f, "clear") } }),
  summary: `${GYM_CREDENTIALS[service].label} saved`,
  // Secrets are never sent back into the page, even after an error.
  fields: ["clear"],
});

const SECTIONS: Record<string, Section<number>> = {
  "door-system": {
    save: (api, _id, f) =>
      api.post("/organisations/:id/access-control/integration", { params: { id: Number(formText(f, "organisation_id")) }, body: { integration_type: "kisi", api_key: formText(f, "api_key") || undefined } }),
    summary: "Door system connected",
    // The key is never sent back into the page.
    fields: [],
  },
  place: { save: (api, id, f) => api.post("/gyms/:id/access-control/places", { params: { id }, body: { place_id: formText(f, "place_id") } }), summary: "Door system place linked", fields: ["place_id"] },
  doors: {
    save: async (api, _id, f) => {
      const organisationId = Number(formText(f, "organisation_id"));
      for (const doorId of f.getAll("door_ids").map(Number)) {
        await api.post("/organisations/:id/access-control/integration", { params: { id: organisationId }, body: { id: doorId, tracks_visits: formOn(f, `door-${doorId}`) } });
      }
    },
    summary: "Doors saved",
    fields: [],
  },
  details: {
    save: async (api, id, f) => {
      // The fixed surcharge is typed in dollars: checked here with the same schema, sent in cents.
      const parsed = gymDetailsForm.safeParse(Object.fromEntries(DETAILS.map((k) => [k, formText(f, k)])));
      if (!parsed.success) throw new SectionInvalid(zodErrors(parsed.error));
      return api.put("/gyms/:id", { params: { id }, body: parsed.data });
    },
    summary: "Gym details saved",
    fields: DETAILS,
  },
  "bank-account": {
    save: (api, id, f) =>
      api.put("/gyms/:gymId/destination-accounts/:accountId", {
        params: { gymId: id, accountId: Number(formText(f, "account_id")) || 0 },
        body: { name: formText(f, "name"), bank_account_number: formText(f, "bank_account_number"), bank_account_number_confirmation: formText(f, "bank_account_number_confirmation") },
      }),
    summary: "Bank account saved",
    fields: ["name", "bank_account_number", "bank_account_number_confirmation"],
  },
  logo: {
    save: (api, id, f) => {
      const file = f.get("file");
      const form = new FormData();
      form.set("collection", "logo");
      if (file instanceof Blob && file.size > 0) form.set("file", file, (file as File).name || "logo");
      return api.raw("post", "/gyms/:id/logo", { params: { id }, body: form });
    },
    summary: "Logo saved",
    fields: [],
  },
  visits: { save: (api, id, f) => api.put("/gyms/:id/tracks-visits", { params: { id }, body: { tracks_visits: formOn(f, "tracks_visits") } }), summary: "Visit tracking saved", fields: ["tracks_visits"] },
  branch: credentialSection("branch"),
  akahu: credentialSection("akahu"),
  onesignal: credentialSection("onesignal"),
};

export async function action(args: ActionFunctionArgs) {
  const { id, api } = gymRoute(args);
  return settingsAction(args.request, api, id, SECTIONS, `/gyms/${id}/edit`);
}

/** /gyms/{id}/edit: each section saves on its own, with its own toast and errors, with JavaScript on or off. */
export default function EditGym() {
  const { gym: g, organisationId, doorSystem, places, mayConnect } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <p className="text-sm">
          <Link to={`/gyms/${g.id}`} className="text-brand-700 hover:underline">
            {g.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Edit {g.name}</h1>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <SettingsSection id="details" title="Details" intent="details" result={result}>
          <TextSetting result={result} intent="details" name="name" label="Name" value={g.name} />
          <TextAreaSetting result={result} intent="details" name="address" label="Address" rows={3} value={g.address ?? ""} />
          <TextSetting result={result} intent="details" name="price_change_notification_reply_to" label="Replies to price-change e-mails go to" type="email" value={g.price_change_notification_reply_to ?? ""} />
          <TextSetting result={result} intent="details" name="break_fee_percentage" label="Break fee (% of what is left of a term)" type="number" value={g.break_fee_percentage === null ? "" : String(g.break_fee_percentage)} />
          <div className="grid grid-cols-2 gap-3">
            <TextSetting result={result} intent="details" name="card_surcharge_percent" label="Card surcharge (%)" value={String(g.card_surcharge_basis_points / 100)} />
            <TextSetting result={result} intent="details" name="card_surcharge_fixed" label="Plus per payment ($)" value={dollars(g.card_surcharge_fixed)} />
          </div>
          <TextSetting result={result} intent="details" name="general_card_surcharge_text" label="What members are told about the surcharge" value={g.general_card_surcharge_text ?? ""} />
        </SettingsSection>

        <SettingsSection
          id="bank-account"
          title="Bank account"
          intent="bank-account"
          result={result}
          hint={g.destination_account ? `Members' payments go to ${g.destination_account.bank_account_number}. Leave the number empty to keep it.` : "Where members' payments go. New Zealand account numbers, such as 12-3140-0171323-50."}
        >
          <input type="hidden" name="account_id" value={g.destination_account?.id ?? 0} />
          <TextSetting result={result} intent="bank-account" name="name" label="Account name" value={g.destination_account?.name ?? ""} />
          <TextSetting result={result} intent="bank-account" name="bank_account_number" label={g.destination_account ? "New account number" : "Account number"} value="" />
          <TextSetting result={result} intent="bank-account" name="bank_account_number_confirmation" label="Repeat the account number" value="" />
        </SettingsSection>

        <SettingsSection id="logo" title="Logo" intent="logo" result={result} files hint="Shown in the sidebar and on this gym's sign-up pages. JPEG, PNG or WebP up to 10 MB; it is fitted within 512 pixels.">
          {g.logo ? <img src={g.logo} alt={`${g.name}'s logo now`} className="h-16 w-auto max-w-full rounded border border-slate-200 bg-white object-contain p-1" /> : <p className="text-sm text-slate-600">No logo yet.</p>}
          <FileSetting result={result} intent="logo" name="file" label="New logo" accept="image/jpeg,image/png,image/webp" />
        </SettingsSection>

        <SettingsSection id="visits" title="Visits" intent="visits" result={result} hint="Whether a member opening this gym's doors counts as a visit (at the doors chosen below).">
          <SwitchSetting result={result} intent="visits" name="tracks_visits" label="Count door openings as visits" on={g.tracks_visits} />
        </SettingsSection>

        {!doorSystem.connected ? (
          mayConnect ? (
            <SettingsSection id="door-system" title="Door system" intent="door-system" result={result} submit="Connect" hint="Kisi, for the whole organisation: members' access follows their membership, and door openings can count as visits.">
              <input type="hidden" name="organisation_id" value={organisationId} />
              <TextSetting result={result} intent="door-system" name="api_key" label={doorSystem.mode === "sandbox" ? "Kisi API key (leave empty to use the sandbox)" : "Kisi API key"} type="password" value="" />
            </SettingsSection>
          ) : (
            <section aria-labelledby="door-system-heading" className="rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="door-system-heading" className="font-semibold">
                Door system
              </h2>
              <p className="mt-1 text-sm text-slate-600">Not connected. An organisation admin connects it.</p>
            </section>
          )
        ) : (
          <>
            <SettingsSection id="place" title="Door system place" intent="place" result={result} submit="Link" hint="The building in Kisi that is this gym. Each gym has one.">
              <SelectSetting
                result={result}
                intent="place"
                name="place_id"
                label="Place"
                value={g.place?.place_id ?? ""}
                options={places.map((p) => ({ value: p.place_id, label: p.gym_id && p.gym_id !== g.id ? `${p.name} (linked to ${p.gym})` : p.name }))}
              />
            </SettingsSection>
            {g.place ? (
              <SettingsSection id="doors" title="Doors" intent="doors" result={result} hint={`The doors of ${g.place.name}. Opening a ticked door counts as a visit, refused attempts too.`}>
                <input type="hidden" name="organisation_id" value={organisationId} />
                {g.doors.map((d) => (
                  <div key={d.id}>
                    <input type="hidden" name="door_ids" value={d.id} />
                    <SwitchSetting result={result} intent="doors" name={`door-${d.id}`} label={`${d.name} counts visits`} on={d.tracks_visits} />
                  </div>
                ))}
                {doorSystem.mode === "sandbox" ? (
                  <p className="text-sm">
                    <a href={`/sandbox/kisi/places/${g.place.place_id}`} className="text-brand-700 underline">
                      Try a door in the sandbox door system
                    </a>
                  </p>
                ) : null}
              </SettingsSection>
            ) : null}
          </>
        )}

        {(Object.keys(GYM_CREDENTIALS) as CredentialService[]).map((s) => (
          <SettingsSection key={s} id={s} title={GYM_CREDENTIALS[s].label} intent={s} result={result} hint="Stored encrypted and never shown again. Leave a field empty to keep what is stored.">
            {Object.entries(GYM_CREDENTIALS[s].fields).map(([k, label]) => (
              <TextSetting key={k} result={result} intent={s} name={k} label={`${label} (${(g.credentials[s] as Record<string, boolean>)[k] ? "set" : "not set"})`} type="password" value="" />
            ))}
            <SwitchSetting result={result} intent={s} name="clear" label="Remove what is stored" on={false} />
          </SettingsSection>
        ))}
      </div>
    </div>
  );
}
