import type { ReactNode } from "react";
import { AuthCard } from "../../components/auth-card";

const STEPS = ["Photo", "Payment", "Confirm", "Welcome"] as const;
export type StepName = (typeof STEPS)[number];

/**
 * The sign-up steps' frame: the card with where the person is on the journey, for eyes and screen readers. Without a
 * step, the card alone: a joined member on a payment page is on no journey.
 */
export function StepFrame({
  step,
  title,
  intro,
  children,
  footer,
}: {
  step?: StepName;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const at = step ? STEPS.indexOf(step) : -1;
  return (
    <AuthCard
      title={title}
      intro={intro}
      footer={footer}
      badge={
        step ? (
          <nav aria-label="Joining steps">
            <ol className="flex gap-1 text-xs font-medium">
              {STEPS.map((name, i) => (
                <li
                  key={name}
                  aria-current={i === at ? "step" : undefined}
                  className={`flex-1 border-t-4 pt-1 ${
                    i < at ? "border-brand-600 text-brand-700" : i === at ? "border-brand-600 text-slate-900" : "border-slate-200 text-slate-600"
                  }`}
                >
                  <span className="sr-only">{i < at ? "Done: " : i === at ? "Now: " : "Next: "}</span>
                  {i + 1}. {name}
                </li>
              ))}
            </ol>
          </nav>
        ) : undefined
      }
    >
      {children}
    </AuthCard>
  );
}

/** A link styled as the main button, for a step's way on. */
export const primaryLink =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2";
export const secondaryButton =
  "inline-flex w-full items-center justify-center text-center rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-500";
