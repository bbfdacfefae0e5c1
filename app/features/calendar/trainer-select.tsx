import { controlClass } from "../../components/control-class";
import { describedBy, FieldError } from "./field-error";

/** Whom a booking or a series is with: the trainers this person may book for (app/features/calendar/trainers.server.ts). */
export function TrainerSelect({ trainers, chosen, errors }: { trainers: { id: number; name: string }[]; chosen?: string; errors?: Record<string, string[]> }) {
  return (
    <div className="space-y-1">
      <label htmlFor="trainer_id" className="block text-sm font-medium text-slate-800">
        Trainer
      </label>
      <select id="trainer_id" name="trainer_id" defaultValue={chosen ?? String(trainers[0]?.id ?? "")} className={controlClass(Boolean(errors?.trainer_id))} {...describedBy(errors, "trainer_id")}>
        {trainers.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <FieldError errors={errors} name="trainer_id" />
      <FieldError errors={errors} name="member_id" />
    </div>
  );
}
