import type { z } from 'zod';
import { ERRORS, isErrorReason, type ErrorReason } from '../errors';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route:
 * - `public`: anyone (rate limits may still apply);
 * - `session`: a signed-in user, by the session cookie (401 without one);
 * - `admin`: a signed-in admin (401 without a session, 403 for anyone else);
 * - `provider`: a provider's callback, authenticated by its signature (and source address), never
 *   by a session.
 */
export const ROUTE_AUTH = ['public', 'session', 'admin', 'provider'] as const;
export type RouteAuth = (typeof ROUTE_AUTH)[number];

/** An answer other than the success body and the `{ message, code }` errors (provider formats). */
export interface RouteAnswer {
  description: string;
  schema?: z.ZodType;
  /** Default `application/json`. */
  contentType?: string;
}

export interface HttpRouteSpec {
  method: HttpMethod;
  /** The public path, parameters written the OpenAPI way: `/api/redemptions/{id}`. */
  path: string;
  /** One line: what the route does. */
  summary: string;
  description?: string;
  /** The reference's section. */
  tag: string;
  auth: RouteAuth;
  /** Path parameters, one key per `{name}` in the path. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (e.g. `Idempotency-Key`), keyed by header name. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** Default `application/json`. */
  bodyTypes?: readonly string[];
  /** The success answer's body; none for an empty answer. */
  response?: z.ZodType;
  /** Default `application/json`. */
  responseType?: string;
  /** Default 200. */
  status?: number;
  responseDescription?: string;
  /**
   * The `{ message, code, reason? }` errors this route answers beyond the ones its declaration
   * already implies (400 for input, 401/403 for auth, 403/415 for the CSRF check), with when.
   */
  errors?: Readonly<Record<number, string>>;
  /**
   * The declared error reasons (libs/contracts/src/errors) this route answers beyond the implied
   * ones; each lands under its declared status. Every status in `errors` names at least one.
   */
  reasons?: readonly ErrorReason[];
  /** Further answers in another shape (a provider's own format), by status. */
  answers?: Readonly<Record<number, RouteAnswer>>;
}

const ROUTE = Symbol.for('@esim/contracts/http-route');

const UNSAFE: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The reasons every route of a kind answers, with when: input that fails its schema, no session,
 * not an admin, and the CSRF check of a state-changing `/api` call. Provider callbacks answer in
 * the provider's own format, so nothing is implied for their input.
 */
export function impliedReasons(spec: HttpRouteSpec): Array<[ErrorReason, string]> {
  const implied: Array<[ErrorReason, string]> = [];
  if ((spec.body || spec.query || spec.params || spec.headers) && spec.auth !== 'provider') implied.push(['invalid_request', 'The input is invalid: `message` says what to fix.']);
  if (spec.auth === 'session' || spec.auth === 'admin') implied.push(['sign_in_required', 'Not signed in (or the session ended).']);
  if (spec.auth === 'admin') implied.push(['not_admin', 'Signed in, but not an admin.']);
  if (spec.path.startsWith('/api/') && UNSAFE.has(spec.method)) {
    implied.push(['csrf_origin', "Cross-origin request: the `Origin` header is not the app's."]);
    implied.push(['csrf_content_type', 'A body that is not JSON.']);
  }
  return implied;
}

export interface HttpRoute extends Readonly<HttpRouteSpec> {
  readonly [ROUTE]: true;
  /** `getAdminGiftDataByUserId`: method and path, stable across declarations. */
  readonly operationId: string;
}

const words = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `POST /api/admin/gift-data/{userId}` → `postAdminGiftDataByUserId` (`/api` dropped, `/webhooks` kept). */
export function operationIdOf(method: HttpMethod, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const named = segments[0] === 'api' ? segments.slice(1) : segments;
  const parts = named.flatMap((segment) => {
    const param = /^\{(.+)\}$/.exec(segment);
    return param ? ['By', ...words(param[1]).map(capital)] : words(segment).map(capital);
  });
  return method.toLowerCase() + parts.join('');
}

/**
 * Declares a public HTTP route next to the zod schemas it speaks. Every route the gateway or the
 * webhooks service answers under `/api` or `/webhooks` is declared once, exported from
 * `@esim/contracts`; the OpenAPI reference (docs/openapi.json, `/api/docs`) is generated from these
 * declarations, and a test checks that they match the controllers.
 */
export function defineRoute(spec: HttpRouteSpec): HttpRoute {
  if (!/^\/(api|webhooks)(\/|$)/.test(spec.path)) throw new Error(`${spec.method} ${spec.path}: public routes live under /api or /webhooks`);
  const inPath = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
  const declared = Object.keys(spec.params?.shape ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${spec.method} ${spec.path}: path parameters {${inPath.join(', ')}} but params declares {${declared.join(', ')}}`);
  }
  if (spec.body && spec.method === 'GET') throw new Error(`${spec.method} ${spec.path}: a GET has no body`);
  for (const reason of spec.reasons ?? []) if (!isErrorReason(reason)) throw new Error(`${spec.method} ${spec.path}: '${String(reason)}' is not a declared error reason`);
  const named = [...impliedReasons(spec).map(([r]) => r), ...(spec.reasons ?? [])];
  const statuses = new Set(named.map((r) => ERRORS[r].status as number));
  const unnamed = Object.keys(spec.errors ?? {}).filter((status) => !statuses.has(Number(status)));
  if (unnamed.length) throw new Error(`${spec.method} ${spec.path}: errors ${unnamed.join(', ')} name no reason: add them to \`reasons\``);
  return Object.freeze({ ...spec, [ROUTE]: true as const, operationId: operationIdOf(spec.method, spec.path) });
}

export function isHttpRoute(value: unknown): value is HttpRoute {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ROUTE] === true;
}
