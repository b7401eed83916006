import { z } from 'zod';
import { BRAND_NAME } from '../catalogue/brand';
import { ERRORS, type ErrorReason } from '../errors';
import { apiErrorSchema } from '../http/auth.http';
import { impliedReasons, type HttpRoute, type RouteAnswer } from './define-route';

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/** The API's own version: raise it with an incompatible change of a route. */
export const API_VERSION = '1.0.0';

/** The gateway's session cookie: `sid` over plain HTTP (development), `__Host-sid` over HTTPS. */
export const SESSION_COOKIE_NAME = 'sid';

const DESCRIPTION = [
  'The HTTP API of the SPA (`/api`) and the provider callbacks (`/webhooks`), generated from the zod',
  'contracts in libs/contracts (`node scripts/openapi.mjs`).',
  '',
  '- **Sessions**: signing in (`POST /api/verify-email`, `POST /api/login`) sets the session cookie',
  '  (`sid`, or `__Host-sid` over HTTPS); routes marked with `sessionCookie` need it.',
  '- **CSRF**: every `POST`, `PATCH`, `PUT` and `DELETE` under `/api` must send JSON (or no body)',
  "  and, when the browser names an `Origin`, it must be the app's own.",
  '- **Errors**: every `/api` error is `{ message, code, reason, details? }` with the status shown;',
  '  `message` is meant for people (in English), `reason` for programs: each answer lists the',
  '  declared reasons a route gives at that status (libs/contracts/src/errors), and `details` has',
  '  the typed facts of some (e.g. `requested` and `available` for `insufficient_points`). Any',
  '  route may also answer 500 `internal_error`, and one that asks another service 503',
  '  `service_unavailable` or `rpc_*`. Rate limits answer 429 with `Retry-After`.',
  "- **Provider callbacks** answer in each provider's own format and authenticate by signature.",
].join('\n');

/**
 * Leaves out what says nothing a reader needs: the safe-integer bounds zod gives every `.int()`,
 * and the regular expression behind a named format (`uuid`, `email`, `date-time`).
 */
function tidy(schema: JsonSchema): void {
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (typeof schema.format === 'string' && ['uuid', 'email', 'date-time'].includes(schema.format)) delete schema.pattern;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output', where: string): JsonSchema {
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, { io, unrepresentable: 'throw', override: ({ jsonSchema }) => tidy(jsonSchema as JsonSchema) }) as JsonSchema;
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
  const { $schema: _dialect, ...rest } = converted;
  // A $ref into $defs would point at the document's root once embedded: keep every schema inline.
  if ('$defs' in rest) throw new Error(`${where}: the schema has shared definitions ($defs); inline them`);
  return rest;
}

function parameters(route: HttpRoute, where: 'path' | 'query' | 'header'): Operation[] {
  const schema = where === 'path' ? route.params : where === 'query' ? route.query : route.headers;
  if (!schema) return [];
  const object = jsonSchema(schema, 'input', `${route.method} ${route.path} ${where}`);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

const content = (type: string, schema: JsonSchema | undefined) => ({ [type]: schema ? { schema } : {} });
/** An error answer: the ApiError shape, its `reason` narrowed to the ones this status can carry. */
const errorAnswer = (description: string, reasons: readonly ErrorReason[]) => ({
  description,
  content: content('application/json', {
    allOf: [{ $ref: '#/components/schemas/ApiError' }, { type: 'object', properties: { reason: { enum: [...reasons] } } }],
  }),
});

interface ErrorsAtStatus {
  whens: string[];
  reasons: ErrorReason[];
}

/** The `{ message, code, reason }` errors a route answers, by status: those its declaration implies, then its own. */
function errorsOf(route: HttpRoute): Map<number, ErrorsAtStatus> {
  const errors = new Map<number, ErrorsAtStatus>();
  const at = (status: number) => errors.get(status) ?? errors.set(status, { whens: [], reasons: [] }).get(status)!;
  // Provider callbacks answer in the provider's format: their refusals are declared as `answers`.
  for (const [reason, when] of impliedReasons(route)) {
    const entry = at(ERRORS[reason].status);
    entry.whens.push(`${when.replace(/\.$/, '')} (\`reason: ${reason}\`).`);
    entry.reasons.push(reason);
  }
  for (const [status, when] of Object.entries(route.errors ?? {})) at(Number(status)).whens.push(when);
  for (const reason of route.reasons ?? []) {
    const entry = at(ERRORS[reason].status);
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
  }
  for (const entry of errors.values()) if (entry.whens.length === 0) entry.whens.push(`See \`reason\`: ${entry.reasons.map((r) => `\`${r}\``).join(', ')}.`);
  return errors;
}

function operation(route: HttpRoute): Operation {
  const where = `${route.method} ${route.path}`;
  const responses: Record<string, unknown> = {};
  const status = route.status ?? 200;
  responses[String(status)] = {
    description: route.responseDescription ?? 'Success.',
    ...(route.response
      ? { content: content(route.responseType ?? 'application/json', jsonSchema(route.response, 'output', `${where} response`)) }
      : {}),
  };
  for (const [code, { whens, reasons }] of [...errorsOf(route)].sort(([a], [b]) => a - b)) {
    if (String(code) in responses) throw new Error(`${where}: status ${code} is both a success and an error`);
    responses[String(code)] = errorAnswer(whens.join(' Or: '), reasons);
  }
  for (const [code, answer] of Object.entries(route.answers ?? {}) as Array<[string, RouteAnswer]>) {
    if (code in responses) throw new Error(`${where}: status ${code} is declared twice`);
    responses[code] = {
      description: answer.description,
      ...(answer.schema ? { content: content(answer.contentType ?? 'application/json', jsonSchema(answer.schema, 'output', `${where} ${code}`)) } : {}),
    };
  }
  const sortedResponses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  const params = [...parameters(route, 'path'), ...parameters(route, 'query'), ...parameters(route, 'header')];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    'x-auth': route.auth,
    security: route.auth === 'session' || route.auth === 'admin' ? [{ sessionCookie: [] }] : [],
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: Object.assign({}, ...(route.bodyTypes ?? ['application/json']).map((type) => content(type, jsonSchema(route.body!, 'input', `${where} body`)))),
          },
        }
      : {}),
    responses: sortedResponses,
  };
}

/** The OpenAPI 3.1 document of `routes` (see collectRoutes): same routes in, same bytes out. */
export function buildOpenApiDocument(routes: readonly HttpRoute[], info: { title?: string; version?: string } = {}): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: { title: info.title ?? `${BRAND_NAME} API`, version: info.version ?? API_VERSION, description: DESCRIPTION },
    tags: [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { ApiError: jsonSchema(apiErrorSchema, 'output', 'ApiError') },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE_NAME,
          description: 'The session cookie set at sign-in (`__Host-sid` when the app is served over HTTPS).',
        },
      },
    },
  };
}
