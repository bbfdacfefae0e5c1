/** The classes of a compact form control (filters, calculators): a red border when the field is in error. */
export const controlClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-100 ${
    invalid ? "border-red-500" : "border-slate-300 focus:border-brand-500"
  }`;
