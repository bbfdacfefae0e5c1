import { z } from "zod";

/** Weeks the dashboard's class occupancy shows by default (this one and those before). */
export const OCCUPANCY_WEEKS = 8;

const weeksMessage = "Weeks must be a whole number from 1 to 52.";

/** GET /api/class-occupancy?weeks=8 (issue 34). */
export const classOccupancyQuery = z.object({
  weeks: z.coerce.number({ invalid_type_error: weeksMessage }).int(weeksMessage).min(1, weeksMessage).max(52, weeksMessage).default(OCCUPANCY_WEEKS),
});
