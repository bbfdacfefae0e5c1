import { formatCents } from "../../../domain/money";

/**
 * What was given back on a payment (issue 28), under its amount on /payments: refunds made or under way, a chargeback
 * lost, a chargeback still open. Words, not colour alone, so it reads the same to everyone.
 */
export function GivenBack({ refunded, chargedBack, disputed }: { refunded: number; chargedBack: number; disputed: boolean }) {
  if (!refunded && !chargedBack && !disputed) return null;
  const badge = "mt-1 mr-1 inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium";
  return (
    <span className="block">
      {refunded ? <span className={`${badge} bg-sky-100 text-sky-900`}>Refunded {formatCents(refunded)}</span> : null}
      {chargedBack ? <span className={`${badge} bg-red-100 text-red-800`}>Charged back {formatCents(chargedBack)}</span> : null}
      {disputed ? <span className={`${badge} bg-amber-100 text-amber-900`}>Disputed</span> : null}
    </span>
  );
}
