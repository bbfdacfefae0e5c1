import { Hono, type MiddlewareHandler } from "hono";
import { describeRoute, generateSpecs, resolver, uniqueSymbol } from "hono-openapi";
import { z, type ZodTypeAny } from "zod";
import { KEY_AREA_NAMES, KEY_AREAS } from "../../domain/api-key-scopes";
import { CONTRACT_ROUTES, pathShape } from "../../domain/contract/routes";
import { OPERATIONS, type Operation } from "./operations";

/** The document's version: the date of the contract it describes (the webhooks' payloads carry the same). */
export const API_VERSION = "2026-11-27";

/** A route's query described from its own schema: hono-openapi lists an object schema's fields as query parameters. */
const queryDoc = (schema: ZodTypeAny): MiddlewareHandler =>
  Object.assign(async (_c: unknown, next: () => Promise<void>) => next(), { [uniqueSymbol]: { target: "query", ...resolver(schema as never) } }) as never;

const error = { $ref: "#/components/schemas/Error" };
const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: error } } });

/** A route SPEC §7 names but has no answer's schema for yet, or one SPEC does not name: the envelope every answer has. */
const envelope = z.object({ data: z.unknown() }).describe("Every answer is `{ data }`; lists are `{ data: { data: [...], meta? } }`.");

/** SPEC's answers (domain/contract/routes.ts): the same schemas the contract test holds the API to. */
const CONTRACT = new Map(CONTRACT_ROUTES.map((r) => [pathShape(r.call), r]));

function responses(key: string, op: Operation) {
  const contract = CONTRACT.get(pathShape(key));
  const answer = contract && !("contentType" in contract.answer) ? contract.answer : envelope;
  const ok = op.media
    ? { description: "The file", content: { [op.media]: { schema: { type: "string", format: "binary" } } } }
    : { description: contract?.description ?? "Done", content: { "application/json": { schema: resolver(answer as never) } } };
  return {
    [String(contract?.status ?? op.status ?? 200)]: ok,
    "401": { $ref: "#/components/responses/Unauthenticated" },
    "403": { $ref: "#/components/responses/Forbidden" },
    "404": { $ref: "#/components/responses/NotFound" },
    ...(op.body || op.query || op.upload ? { "422": { $ref: "#/components/responses/Invalid" } } : {}),
    "429": { $ref: "#/components/responses/TooMany" },
  };
}

/** A path's parameters as the routes match them: ids are positive whole numbers, a session's day is YYYY-MM-DD. */
function pathParameters(path: string) {
  return [...path.matchAll(/:(\w+)(\{[^}]*\})?/g)].map(([, name, pattern]) => ({
    name,
    in: "path" as const,
    required: true,
    schema: pattern === "{[0-9]+}" ? { type: "integer" as const, minimum: 1 } : { type: "string" as const, format: "date" },
  }));
}

const pathOf = (key: string) => key.slice(key.indexOf(" ") + 1);
const methodOf = (key: string) => key.slice(0, key.indexOf(" ")).toLowerCase() as "get" | "post" | "put" | "delete";

/** Only the descriptions, on an app of their own: nothing here runs for a request. */
function describedRoutes() {
  const docs = new Hono();
  for (const [key, op] of Object.entries(OPERATIONS) as [string, Operation][]) {
    const scope = op.scope ? `Needs the key scope \`${op.scope}\`.` : "Any key of the organisation.";
    const handlers: MiddlewareHandler[] = [
      describeRoute({
        tags: [op.tag],
        summary: op.summary,
        description: [op.description, scope].filter(Boolean).join("\n\n"),
        security: [{ bearer: [] }],
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: {
                  "application/json": { schema: resolver(op.body as never) },
                  "application/x-www-form-urlencoded": { schema: resolver(op.body as never) },
                },
              },
            }
          : op.upload
          ? {
              requestBody: {
                required: true,
                content: {
                  "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } }, required: ["file"] } },
                },
              },
            }
          : {}),
        parameters: [...pathParameters(pathOf(key)), ...(methodOf(key) === "post" ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : [])],
        responses: responses(key, op),
      }),
    ];
    if (op.query) handlers.push(queryDoc(op.query));
    docs.on(methodOf(key).toUpperCase(), pathOf(key), ...(handlers as [MiddlewareHandler]));
  }
  return docs;
}

const scopesText = KEY_AREA_NAMES.map(
  (a) => `- ${KEY_AREAS[a].label}: read \`${KEY_AREAS[a].read.join("`, `")}\`; write adds \`${KEY_AREAS[a].write.join("`, `")}\``,
).join("\n");

const DESCRIPTION = `The gym API for integrators: the routes an organisation's API key may call.

**Keys.** Organisation admins make keys under Organisation › Developers. Send one as \`Authorization: Bearer gym_live_…\`: no cookie, no other header. A key acts for its organisation in every gym, and may do only what its scopes allow:
${scopesText}

**Answers.** Every answer is JSON \`{ data }\`; a list is \`{ data: { data: [...], meta } }\`, 50 a page (\`?page=\`). Money is integer cents; instants are ISO 8601 in UTC; calendar days are \`YYYY-MM-DD\` in New Zealand time.

**Errors.** Every failure is \`{ message, error, errors? }\`: \`message\` for people, \`error\` a stable code for programs (\`invalid_api_key\`, \`api_key_not_allowed\`, \`forbidden\`, \`not_found\`, \`validation_failed\`, \`too_many_attempts\`, \`idempotency_key_reused\`, \`idempotency_key_in_use\`…), \`errors\` the fields' messages on 422.

**Limits.** Each key has its requests a minute (600 unless its admin chose otherwise); past it, 429 with \`Retry-After\`. \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` say where a key stands.

**Retrying safely.** Send \`Idempotency-Key\` (such as a UUID) with a POST: the same request with the same key within a day is answered the first result again (\`Idempotent-Replayed: true\`) without doing it twice; the same key with another body is 422.

**Webhooks.** Organisation admins register endpoints under Organisation › Developers › Webhooks; events are signed by the Standard Webhooks scheme (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`).`;

const TAGS = [
  { name: "Gyms", description: "The organisation's gyms (locations)." },
  { name: "Members", description: "People who are members: profiles, photos, door access." },
  { name: "Memberships", description: "A member's memberships (subscriptions): starting, pausing, cancelling, changing price." },
  { name: "Payments", description: "What members paid and owe, payments taken at the desk, refunds." },
  { name: "Visits", description: "Visits and check-ins at the front desk." },
  { name: "Offerings and prices", description: "What is sold: offerings and their prices." },
  { name: "Calendar", description: "Appointments and recurring schedules (with calendar and messaging on)." },
  { name: "Classes", description: "Group classes: class types, the timetable, bookings, rosters and attendance." },
];

let document: Promise<Record<string, unknown>> | undefined;

/** The OpenAPI 3.1 document of the routes open to keys, made once per process. */
export function openApiDocument() {
  document ??= generateSpecs(describedRoutes(), {
    defaultValidationErrorResponse: false,
    documentation: {
      info: { title: "Gym Membership API", version: API_VERSION, description: DESCRIPTION },
      servers: [{ url: "/", description: "This installation: the back-office's own address" }],
      tags: TAGS,
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key: `gym_live_` and 32 characters." } },
        schemas: {
          Error: {
            type: "object",
            required: ["message"],
            properties: {
              message: { type: "string", description: "What went wrong, for people." },
              error: { type: "string", description: "A stable code, for programs." },
              errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: "Each field's messages (422)." },
            },
          },
        },
        parameters: {
          IdempotencyKey: {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "Makes a retried POST safe: the same key and body within a day is answered the first result again.",
            schema: { type: "string", minLength: 1, maxLength: 255 },
          },
        },
        responses: {
          Unauthenticated: errorResponse("No key, or a key that is not valid or has been revoked (`invalid_api_key`)."),
          Forbidden: errorResponse("The key lacks the scope (`forbidden`), or the route is not for keys (`api_key_not_allowed`)."),
          NotFound: errorResponse("No such record in this organisation (`not_found`)."),
          Invalid: errorResponse(
            "The request's values were refused (`validation_failed`, with `errors` per field), or an Idempotency-Key was reused (`idempotency_key_reused`).",
          ),
          TooMany: {
            ...errorResponse("Past the key's requests a minute (`too_many_attempts`)."),
            headers: { "Retry-After": { description: "Seconds until the limit resets.", schema: { type: "integer" } } },
          },
        },
      },
      security: [{ bearer: [] }],
    },
  }) as Promise<Record<string, unknown>>;
  return document;
}
