import { parseAmountToCents } from "../../../domain/money";
import { formValues } from "./submit.server";

/** A class type's form as the API's body: the drop-in price from dollars to cents (a bad amount is refused here, naming the field). */
export function classTypeBody(form: FormData) {
  const values = formValues(form, ["offering_ids", "price_ids"]);
  const dropIn = String(form.get("drop_in") ?? "").trim();
  const cents = dropIn ? parseAmountToCents(dropIn) : null;
  const dropInError = dropIn && cents === null ? { drop_in: ["Enter an amount such as 20.00"] } : null;
  const body = {
    name: values.name,
    description: values.description,
    duration_minutes: values.duration_minutes,
    default_capacity: values.default_capacity,
    default_waitlist: values.default_waitlist,
    colour: values.colour,
    drop_in_amount: cents,
    offering_ids: form.getAll("offering_ids").map(String),
    price_ids: form.getAll("price_ids").map(String),
  };
  return { body, values, dropInError };
}
