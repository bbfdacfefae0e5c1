import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { PG_INT_MAX } from "../../../domain/schemas/ids";
import { ProRataForm, ProRataResult } from "../../features/pro-rata/calculator";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Calculate pro-rata · Gym Membership" }];

/** /calculate-pro-rata?price=&start_date=&billing_date=: the form, and the answer once a price and a start are chosen. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const values = { price: url.searchParams.get("price") ?? "", start_date: url.searchParams.get("start_date") ?? localDay(new Date()), billing_date: url.searchParams.get("billing_date") ?? "" };
  try {
    const offerings = (await api.get("/offerings")).data;
    if (!url.searchParams.has("price")) return { offerings, values, errors: {}, answer: null };
    const id = /^[1-9][0-9]{0,9}$/.test(values.price) ? Number(values.price) : NaN;
    if (!(id <= PG_INT_MAX)) return { offerings, values, errors: { price: ["Choose a price from the list"] }, answer: null };
    try {
      const answer = await api.post("/prices/:id/pro-rata", { params: { id }, body: { start_date: values.start_date, billing_date: values.billing_date } });
      return { offerings, values, errors: {}, answer };
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 422) return { offerings, values, errors: err.errors ?? {}, answer: null };
      if (err instanceof ApiRequestError && err.status === 404) return { offerings, values, errors: { price: ["Choose a price from the list"] }, answer: null };
      throw err;
    }
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function CalculateProRata() {
  const { offerings, values, errors, answer } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-4xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Calculate pro-rata</h1>
        <p className="mt-1 text-sm text-slate-600">
          What a member who starts part-way into a billing period pays for the days up to their first full charge: the price × the days left ÷ the days in the period.
        </p>
      </div>
      <ProRataForm offerings={offerings} values={values} errors={errors} />
      {answer ? <ProRataResult answer={answer} /> : null}
    </div>
  );
}
