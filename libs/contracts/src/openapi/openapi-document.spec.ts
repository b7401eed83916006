import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { z } from 'zod';
import * as contracts from '..';
import { collectRoutes } from './collect-routes';
import { defineRoute } from './define-route';
import { buildOpenApiDocument } from './openapi-document';

const root = path.resolve(__dirname, '../../../..');
const run = promisify(execFile);
const document = () => buildOpenApiDocument(collectRoutes(contracts as unknown as Record<string, unknown>));
type Op = {
  security: unknown[];
  'x-auth': string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const op = (doc: ReturnType<typeof document>, method: string, route: string) => doc.paths[route][method] as unknown as Op;

describe('the OpenAPI reference', () => {
  it('is a valid OpenAPI 3.1 document covering every declared route', async () => {
    const doc = document();
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((methods) => Object.keys(methods));
    expect(operations.length).toBe(collectRoutes(contracts as unknown as Record<string, unknown>).length);
    expect(operations.length).toBeGreaterThanOrEqual(30);
  });

  it('is refused by the validator when it is broken (the check can fail)', async () => {
    const broken = () => structuredClone(document()) as unknown as { paths: Record<string, Record<string, Op>> };
    const swagger2Parameter = broken();
    swagger2Parameter.paths['/api/redeem-points'].post.parameters![0].in = 'body';
    await expect(SwaggerParser.validate(swagger2Parameter as never)).rejects.toThrow(/parameters\/0\/in must be equal to one of the allowed values/);
    const optionalPathParameter = broken();
    optionalPathParameter.paths['/api/redemptions/{id}'].get.parameters![0].required = false;
    await expect(SwaggerParser.validate(optionalPathParameter as never)).rejects.toThrow(/validation failed/);
  });

  it('describes requests as clients send them and answers as the server writes them', () => {
    const doc = document();
    const register = op(doc, 'post', '/api/register');
    const body = register.requestBody!.content['application/json'].schema as { required: string[]; properties: Record<string, unknown> };
    expect(body.required).toEqual(expect.arrayContaining(['email', 'password', 'name', 'acceptTerms', 'acceptPrivacy']));
    expect(body.properties.locale).toBeDefined();
    // Unknown body fields are dropped by the gateway, not refused: the request schema stays open.
    expect(body).not.toHaveProperty('additionalProperties');
    // The answer is the contract's output shape.
    expect(register.responses['200'].content!['application/json'].schema).toMatchObject({
      properties: { requiresVerification: { const: true } },
      additionalProperties: false,
    });
    // A query with defaults is optional for the client.
    const users = op(doc, 'get', '/api/admin/users');
    expect(users.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'limit', in: 'query', required: false })]),
    );
    // Headers and path parameters.
    expect(op(doc, 'post', '/api/redeem-points').parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]);
    expect(op(doc, 'get', '/api/redemptions/{id}').parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });

  it('derives auth and the errors every route of its kind answers', () => {
    const doc = document();
    const admin = op(doc, 'get', '/api/admin/stats');
    expect(admin.security).toEqual([{ sessionCookie: [] }]);
    expect(Object.keys(admin.responses)).toEqual(['200', '401', '403']);
    expect(admin.responses['403'].content!['application/json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/ApiError' }, { type: 'object', properties: { reason: { enum: ['not_admin'] } } }],
    });

    const register = op(doc, 'post', '/api/register');
    expect(register.security).toEqual([]);
    // Input, the CSRF check (origin, JSON only) and the route's own rate limit.
    expect(Object.keys(register.responses)).toEqual(['200', '400', '403', '415', '429']);

    const profile = op(doc, 'get', '/api/user');
    expect(Object.keys(profile.responses)).toEqual(['200', '401']);

    // A provider callback answers in the provider's format: no session, no { message, code }.
    const postback = op(doc, 'post', '/webhooks/offerwalls/{provider}');
    expect(postback['x-auth']).toBe('provider');
    expect(postback.security).toEqual([]);
    expect(Object.keys(postback.requestBody!.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    expect(postback.responses['403'].content!['text/plain'].schema).toEqual(expect.objectContaining({ enum: ['rejected_ip', 'rejected_signature'] }));
    expect(JSON.stringify(postback.responses)).not.toContain('ApiError');
  });
});

describe('the error reasons of each route', () => {
  const reasonsAt = (doc: ReturnType<typeof document>, method: string, path: string, status: string) =>
    (op(doc, method, path).responses[status].content!['application/json'].schema as { allOf: Array<{ properties?: { reason?: { enum: string[] } } }> }).allOf[1]
      .properties!.reason!.enum;

  it('lists the declared reasons a route answers under their declared status', () => {
    const doc = document();
    expect(reasonsAt(doc, 'post', '/api/redeem-points', '409')).toEqual(['insufficient_points', 'idempotency_key_reused']);
    expect(reasonsAt(doc, 'post', '/api/redeem-points', '403')).toEqual(['csrf_origin', 'captcha_required', 'redemptions_paused']);
    expect(reasonsAt(doc, 'post', '/api/redeem-points', '422')).toEqual(['provider_refused']);
    expect(reasonsAt(doc, 'post', '/api/login', '401')).toEqual(['invalid_credentials']);
    expect(reasonsAt(doc, 'get', '/api/esim-lines/{iccid}/usage', '503')).toEqual(['provider_unavailable']);
    // Every status of every { message, code } error names at least one declared reason.
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries((operation as { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses)) {
          const schema = JSON.stringify(response.content?.['application/json']?.schema ?? {});
          if (schema.includes('ApiError')) expect({ at: `${method} ${path} ${status}`, named: /"enum":\["[a-z_]+/.test(schema) }).toEqual({ at: `${method} ${path} ${status}`, named: true });
        }
      }
    }
  });

  it('refuses an undeclared reason, and an error status that names no reason', () => {
    const base = { tag: 'T', auth: 'public', summary: 's', method: 'GET', path: '/api/things' } as const;
    // @ts-expect-error not a declared reason
    expect(() => defineRoute({ ...base, reasons: ['no_such_reason'] })).toThrow(/'no_such_reason' is not a declared error reason/);
    expect(() => defineRoute({ ...base, errors: { 409: 'Taken.' } })).toThrow(/errors 409 name no reason/);
    expect(() => defineRoute({ ...base, errors: { 409: 'Taken.' }, reasons: ['retry_in_progress'] })).not.toThrow();
  });
});

describe('defineRoute and collectRoutes', () => {
  const base = { tag: 'T', auth: 'public', summary: 's' } as const;

  it('refuses a declaration that cannot match a real route', () => {
    expect(() => defineRoute({ ...base, method: 'GET', path: '/sandbox/x' })).toThrow(/under \/api or \/webhooks/);
    expect(() => defineRoute({ ...base, method: 'GET', path: '/api/things/{id}' })).toThrow(/path parameters \{id\}/);
    expect(() => defineRoute({ ...base, method: 'GET', path: '/api/things', params: z.object({ id: z.string() }) })).toThrow(/params declares \{id\}/);
    expect(() => defineRoute({ ...base, method: 'GET', path: '/api/things', body: z.object({}) })).toThrow(/a GET has no body/);
  });

  it('names operations after method and path', () => {
    expect(defineRoute({ ...base, method: 'POST', path: '/api/admin/gift-data/{userId}', params: z.object({ userId: z.string() }) }).operationId).toBe(
      'postAdminGiftDataByUserId',
    );
    expect(defineRoute({ ...base, method: 'GET', path: '/webhooks/stripe' }).operationId).toBe('getWebhooksStripe');
  });

  it('finds routes exported alone, in groups and in arrays, once each, and refuses a route declared twice', () => {
    const one = defineRoute({ ...base, method: 'GET', path: '/api/one' });
    const two = defineRoute({ ...base, method: 'GET', path: '/api/two' });
    const three = defineRoute({ ...base, method: 'POST', path: '/api/one' });
    const found = collectRoutes({ one, Group: { two, one }, list: [three], notARoute: { path: '/api/x' }, schema: z.string() });
    expect(found.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/one', 'POST /api/one', 'GET /api/two']);
    expect(() => collectRoutes({ one, again: defineRoute({ ...base, method: 'GET', path: '/api/one' }) })).toThrow('GET /api/one is declared twice');
  });

  it('refuses a schema JSON Schema cannot express rather than documenting it wrongly', () => {
    const route = defineRoute({ ...base, method: 'GET', path: '/api/when', response: z.object({ at: z.date() }) });
    expect(() => buildOpenApiDocument([route])).toThrow(/GET \/api\/when response/);
  });
});

describe('docs/openapi.json', () => {
  it('is what the contracts generate (node scripts/openapi.mjs)', () => {
    const committed = fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(JSON.stringify(document())));
  });

  it('`--check` fails, naming the operation, when the file and the contracts differ', async () => {
    const stale = JSON.parse(fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8'));
    stale.paths['/api/login'].post.summary = 'an old summary';
    delete stale.paths['/api/tasks'];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    fs.writeFileSync(file, `${JSON.stringify(stale, null, 2)}\n`);
    const check = run(process.execPath, ['scripts/openapi.mjs', '--check'], { cwd: root, env: { ...process.env, OPENAPI_FILE: file } });
    await expect(check).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('changed: POST /api/login') });
    await expect(check.catch((e: { stderr: string }) => e.stderr)).resolves.toContain('added: GET /api/tasks');

    // Regenerated, it passes.
    await run(process.execPath, ['scripts/openapi.mjs'], { cwd: root, env: { ...process.env, OPENAPI_FILE: file } });
    const { stdout } = await run(process.execPath, ['scripts/openapi.mjs', '--check'], { cwd: root, env: { ...process.env, OPENAPI_FILE: file } });
    expect(stdout).toMatch(/matches the contracts/);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
