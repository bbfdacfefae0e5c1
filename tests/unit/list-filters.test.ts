import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FilterDate, FilterSelect, filterField } from "../../app/components/list-filters";

/** The back office lists' shared filter fields (the reconciliation and the webhook calls, issue 28 review). */
describe("list filter fields", () => {
  it("label each control, and tie an error to its field only when there is one", () => {
    expect(filterField("calls", "from")).toMatchObject({ id: "calls-from", error: null, aria: { "aria-invalid": undefined, "aria-describedby": undefined } });
    expect(filterField("calls", "to", { to: ["Choose a day on or after From"] })).toMatchObject({ error: "Choose a day on or after From", aria: { "aria-invalid": true, "aria-describedby": "calls-to-error" } });
  });

  it("render a select with its 'all' choice and the value chosen, and a date with its error", () => {
    const select = renderToStaticMarkup(createElement(FilterSelect, { form: "calls", name: "provider", label: "Provider", value: "stripe", any: "All", options: [["stripe", "Stripe"], ["gocardless", "GoCardless"]] }));
    expect(select).toContain('<label for="calls-provider"');
    expect(select).toMatch(/<option value="">All<\/option><option value="stripe" selected="">Stripe<\/option>/);
    const date = renderToStaticMarkup(createElement(FilterDate, { form: "calls", name: "to", label: "To", value: "2026-01-01", errors: { to: ["Choose a day on or after From"] } }));
    expect(date).toMatch(/<input id="calls-to" name="to" type="date" class="[^"]*border-red-500" aria-invalid="true" aria-describedby="calls-to-error" value="2026-01-01"\/>/);
    expect(date).toContain('<p id="calls-to-error" class="text-sm text-red-700">Choose a day on or after From</p>');
  });
});
