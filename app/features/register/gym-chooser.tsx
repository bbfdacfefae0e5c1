import { Link } from "@remix-run/react";
import type { PublicGym } from "./types";
import { AuthCard } from "../../components/auth-card";

/** A gym's logo, or its initials when it has none. Decorative: the gym's name is always beside it. */
export function GymLogo({ gym, size = "md" }: { gym: Pick<PublicGym, "name" | "logo">; size?: "md" | "lg" }) {
  const box = size === "lg" ? "h-14 w-14 text-lg" : "h-10 w-10 text-sm";
  if (gym.logo) {
    const px = size === "lg" ? 56 : 40;
    return <img src={gym.logo} alt="" width={px} height={px} className={`${box} shrink-0 rounded-lg border border-slate-200 bg-white object-contain`} />;
  }
  const initials = gym.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
  return (
    <span aria-hidden="true" className={`${box} inline-flex shrink-0 items-center justify-center rounded-lg bg-brand-100 font-semibold text-brand-700`}>
      {initials}
    </span>
  );
}

/**
 * The sign-up host's first page when the link names no gym: every gym, by organisation, each a link to its
 * register form (/?gym=uuid). Plain links, so it works the same without JavaScript.
 */
export function GymChooser({ gyms, notice }: { gyms: PublicGym[]; notice?: string }) {
  const byOrganisation = new Map<string, PublicGym[]>();
  for (const g of gyms) byOrganisation.set(g.organisation.name, [...(byOrganisation.get(g.organisation.name) ?? []), g]);
  return (
    <AuthCard
      title="Choose your gym"
      intro="Pick the gym you are joining. Next you create your account with them."
      footer={
        <span>
          Already a member or part way through joining?{" "}
          <Link to="/sign-in" className="font-medium text-brand-700 underline">
            Sign in
          </Link>
        </span>
      }
    >
      {notice ? (
        <p role="alert" className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      {gyms.length === 0 ? (
        <p className="text-slate-700">No gym takes sign-ups here yet. Ask your gym for its sign-up link.</p>
      ) : (
        <div className="space-y-6">
          {[...byOrganisation].map(([organisation, list], i) => (
            <section key={organisation} aria-labelledby={`organisation-${i}`}>
              <h2 id={`organisation-${i}`} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
                {organisation}
              </h2>
              <ul className="mt-2 space-y-2">
                {list.map((gym) => (
                  <li key={gym.uuid}>
                    <Link
                      to={`/?gym=${encodeURIComponent(gym.uuid)}`}
                      className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 hover:border-brand-500 hover:bg-brand-50 focus:outline-none focus:ring-2 focus:ring-brand-500"
                    >
                      <GymLogo gym={gym} />
                      <span className="flex-1 font-medium text-slate-900">{gym.name}</span>
                      <span aria-hidden="true" className="text-slate-400">
                        ›
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </AuthCard>
  );
}
