import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { useRef } from "react";
import { webhookEndpointFields, webhookEndpointRequest } from "../../../domain/schemas/webhook-endpoints";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, type WebhookEventType } from "../../../domain/webhook-events";
import { CopyButton } from "../../components/copy-button";
import { Field, FieldErrors, FormErrors } from "../../components/field";

/**
 * An endpoint's address, description and events (issue 33): one form for adding and editing, checked with the API's
 * own schema. "Every event" picks them all: with JavaScript it ticks the boxes below as you click it; without, the
 * server reads it as every event.
 */
export function EndpointForm({
  lastResult,
  pending,
  intent,
  submit,
  defaults,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  pending: boolean;
  intent?: string;
  submit: string;
  defaults?: { url: string; description: string; events: string[] };
}) {
  const [form, fields] = useForm({
    id: intent ? `endpoint-${intent}` : "endpoint-new",
    lastResult,
    defaultValue: defaults,
    constraint: getZodConstraint(webhookEndpointFields),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookEndpointRequest }),
  });
  const boxes = useRef<HTMLFieldSetElement>(null);
  const initial = fields.events.initialValue;
  const chosen = new Set<string>(Array.isArray(initial) ? (initial as string[]) : initial ? [String(initial)] : []);
  const allChosen = WEBHOOK_EVENT_TYPES.every((t) => chosen.has(t)) || (form.initialValue as Record<string, unknown> | undefined)?.all_events === "on";
  const eventsInvalid = Boolean(fields.events.errors?.length);
  // Keeps "Every event" true to the boxes as they are ticked (JavaScript only; without it the server decides).
  const sync = (from: "all" | "one") => {
    const all = boxes.current?.querySelector<HTMLInputElement>("input[name=all_events]");
    const each = [...(boxes.current?.querySelectorAll<HTMLInputElement>("input[name=events]") ?? [])];
    if (!all) return;
    if (from === "all") for (const box of each) box.checked = all.checked;
    else all.checked = each.every((box) => box.checked);
  };
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" noValidate>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        field={fields.url}
        label="Endpoint URL"
        hint="Where we POST each event, signed. It must be https and reachable on the internet."
        inputProps={{ inputMode: "url", autoComplete: "off", spellCheck: false, placeholder: "https://example.com/webhooks/gym" }}
      />
      <Field
        field={fields.description}
        label={
          <>
            Description <span className="font-normal text-slate-600">(optional)</span>
          </>
        }
        inputProps={{ autoComplete: "off" }}
      />
      <fieldset ref={boxes} className="space-y-2" aria-describedby={eventsInvalid ? fields.events.errorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">Events to send</legend>
        <label className="flex min-h-6 items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="all_events"
            defaultChecked={allChosen}
            onChange={() => sync("all")}
            className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
          />
          Every event
        </label>
        <div className="grid grid-cols-1 gap-x-6 gap-y-1 pl-6 md:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type: WebhookEventType) => (
            <label key={type} className="flex min-h-6 items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="events"
                value={type}
                defaultChecked={allChosen || chosen.has(type)}
                onChange={() => sync("one")}
                aria-invalid={eventsInvalid || undefined}
                className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
              />
              <span>
                <code className="text-xs font-semibold text-slate-900">{type}</code>
                <span className="block text-xs text-slate-600">{WEBHOOK_EVENTS[type].label}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldErrors id={fields.events.errorId} errors={fields.events.errors} />
      </fieldset>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
      >
        {submit}
      </button>
    </Form>
  );
}

/** The signing secret, on the page that made or rotated it: shown this once, with how to use it. */
export function SecretShownOnce({ secret, heading }: { secret: string; heading: string }) {
  return (
    <section aria-labelledby="secret-heading" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="secret-heading" className="font-semibold text-amber-950">
        {heading}
      </h2>
      <p className="text-sm text-amber-950">Copy it now: it is not shown again. Your receiver checks each event&apos;s signature with it.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-secret className="break-all rounded border border-amber-300 bg-white px-2 py-1 text-sm text-slate-900">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy the signing secret" />
      </div>
    </section>
  );
}
