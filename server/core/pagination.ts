import type { Context } from "hono";
import { z } from "zod";
import { readQuery } from "./body";
import type { ApiEnv } from "./context";

const pageSchema = z.object({
  page: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ invalid_type_error: "Page must be a whole number from 1" })
      .int("Page must be a whole number from 1")
      .min(1, "Page must be a whole number from 1")
      .max(100_000)
      .default(1),
  ),
});

/** The `page` query of a paged list (1 when absent); a bad one is a 422 with the field's message. */
export const pageParam = (c: Context<ApiEnv>) => readQuery(c, pageSchema).page;
