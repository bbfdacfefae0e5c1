import { z } from "zod";
import { optional } from "./fields";
import { PAYMENT_TYPE_KINDS } from "../surcharge";
import { databaseId } from "./ids";


/** GET /api/surcharge-total?price_id=&payment_type=&gym_id=: the gym is the price's own, else the one named, else the current gym. */
export const surchargeTotalQuery = z.object({
  price_id: databaseId("Choose a price from the list"),
  payment_type: z.enum(PAYMENT_TYPE_KINDS, { errorMap: () => ({ message: "Choose card, direct debit or bank account" }) }),
  gym_id: optional(databaseId("Choose a gym from the list")),
});
