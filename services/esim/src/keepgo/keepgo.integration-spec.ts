import { randomUUID } from 'node:crypto';
import { AddressInfo, createServer } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConfigError, Metrics, ProviderCalls } from '@esim/platform';
import { TestNamespace, waitFor } from '@esim/testing';
import { startEsim } from '../app';
import { ESIM_PROVIDER, EsimProvider } from './esim-provider';
import { EsimProviderException } from './esim-provider.exception';
import { KEEPGO_DEMO_ICCID, KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_API_PATH } from './keepgo-api';
import { KeepGoEsimProvider } from './keepgo-esim-provider.service';
import { KeepGoLineLocks } from './keepgo-line-locks.service';
import { KEEPGO_CALLS, KeepGoSettings } from './keepgo-settings';
import { parseNotes } from './line-notes';
import { luhnValid } from '../../../../sandboxes/src/keepgo/sandbox-identifiers';
import { SandboxesUnderTest, startSandboxesUnderTest } from '../../../../sandboxes/src/testing/sandboxes-under-test';

const SANDBOX_HEADERS = { apiKey: KEEPGO_SANDBOX_API_KEY, accessToken: KEEPGO_SANDBOX_ACCESS_TOKEN, 'content-type': 'application/json' };
const TIMEOUT_MS = 600;
const RETRIES = 2;
const LPA = /^LPA:1\$[a-z0-9.-]+\.[a-z]+\$[A-Z0-9]+(-[A-Z0-9]+)*$/;

/** The error a promise rejects with (fails the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<EsimProviderException> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(EsimProviderException);
    return err as EsimProviderException;
  }
  throw new Error('expected the call to fail');
}

/** A replica's own breaker and metrics, as KeepGoModule makes them. */
const callsOf = (settings: KeepGoSettings) => new ProviderCalls(new Metrics('esim'), 'keepgo', settings.breaker, EsimProviderException.isTransient);

const httpBase = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

describe('KeepGo adapter against the KeepGo emulator (the sandboxes app, real HTTP and Postgres)', () => {
  const ns = new TestNamespace();
  const env = (overrides: Record<string, string> = {}) =>
    ns.env('esim', { SANDBOXES_URL: sandboxes.url, KEEPGO_TIMEOUT_MS: String(TIMEOUT_MS), KEEPGO_RETRIES: String(RETRIES), KEEPGO_RETRY_BACKOFF_MS: '20', ...overrides });
  let sandboxes: SandboxesUnderTest;
  let app: INestApplication;
  let keepgo: EsimProvider;
  let db: DataSource;
  let base: string;

  const reference = () => `redemption-${randomUUID()}`;
  const control = async (body: Record<string, unknown>, headers: Record<string, string> = SANDBOX_HEADERS) => {
    const res = await fetch(`${base}/keepgo/_control`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { requests: Record<string, number> } & Record<string, unknown> };
  };
  const requests = async (route: string) => {
    const res = await fetch(`${base}/keepgo/_control`, { headers: SANDBOX_HEADERS });
    return ((await res.json()) as { requests: Record<string, number> }).requests[route] ?? 0;
  };
  const lineCount = async () => Number((await db.query('SELECT count(*)::int AS n FROM keepgo_sandbox_lines'))[0].n);
  const dataOn = async (iccid: string) => (await keepgo.lineDetails(iccid)).remainingMb ?? 0;
  const balance = async () => Number((await keepgo.accountBalance()).amount);
  const emulatorApi = (method: string, path: string, body?: unknown, headers: Record<string, string> = SANDBOX_HEADERS) =>
    fetch(`${base}${KEEPGO_SANDBOX_API_PATH}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

  beforeAll(async () => {
    sandboxes = await startSandboxesUnderTest(ns);
    app = await startEsim(env());
    keepgo = app.get<EsimProvider>(ESIM_PROVIDER);
    db = sandboxes.db('keepgo');
    base = sandboxes.url;
  });
  beforeEach(async () => {
    expect((await control({ reset: true, balanceUsd: 1000 })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await sandboxes?.stop();
    await ns.cleanup();
  });

  it('runs against the emulator at SANDBOXES_URL when no KeepGo credentials are set', () => {
    expect(keepgo.sandbox).toBe(true);
    expect((keepgo as KeepGoEsimProvider).baseUrl()).toBe(`${base}/keepgo/api/v2`);
  });

  it('orders a new US eSIM: a 19-digit ICCID starting with 89 (Luhn-valid), an SGP.22 LPA code, our reference on the line', async () => {
    const ref = reference();
    const before = await balance();
    const line = await keepgo.createLine({ country: 'US', plan: '3GB', reference: ref });

    expect(line).toMatchObject({ kind: 'create', reference: ref, amountMb: 3072, amountDays: 30, bundleId: 101 });
    expect(line.iccid).toMatch(/^89\d{17}$/);
    expect(luhnValid(line.iccid)).toBe(true);
    expect(line.lpaCode).toMatch(LPA);
    expect(line.transactionId).toEqual(expect.any(String));

    const details = await keepgo.lineDetails(line.iccid);
    expect(details).toMatchObject({
      iccid: line.iccid,
      lpaCode: line.lpaCode,
      status: 'Registered',
      remainingMb: 3072,
      remainingDays: 30,
      bundleName: 'Orion',
    });
    const [row] = await db.query('SELECT notes FROM keepgo_sandbox_lines WHERE iccid = $1', [line.iccid]);
    expect(parseNotes(row.notes).records).toEqual([expect.objectContaining({ ref, kind: 'create', state: 'done', mb: 3072 })]);
    expect(await balance()).toBeCloseTo(before - 5.53, 2);
  });

  it('tops up the demo ICCID with exactly the plan’s data', async () => {
    const before = await dataOn(KEEPGO_DEMO_ICCID);
    const refill = await keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '1GB', reference: reference() });

    expect(refill).toMatchObject({ kind: 'refill', iccid: KEEPGO_DEMO_ICCID, amountMb: 1024, amountDays: 30 });
    expect(refill.transactionId).toEqual(expect.any(String));
    expect(refill.dataBundleId).toEqual(expect.any(Number));
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 1024);
  });

  it('answers "line not found" for an unknown ICCID, as a definite refusal that is not retried', async () => {
    const err = await failure(keepgo.refill({ iccid: '8900000000000000999', plan: '1GB', reference: reference() }));
    expect(err).toMatchObject({ code: 'line_not_found', definite: true, transient: false, httpStatus: 404 });
    expect(err.message).toContain('line not found');
    expect(await requests('GET /line/:iccid/get_details')).toBe(1);
    expect(await requests('POST /line/:iccid/refill')).toBe(0);

    expect((await failure(keepgo.lineDetails('8900000000000000999'))).code).toBe('line_not_found');
    // Not even an ICCID: refused without asking.
    expect((await failure(keepgo.lineDetails('12ab'))).code).toBe('line_not_found');
  });

  it('answers "No refills available" for a deactivated line and "No suitable" for a country without a bundle', async () => {
    const line = await keepgo.createLine({ country: 'MX', plan: '1GB', reference: reference() });
    const past = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await emulatorApi('PUT', `/line/${line.iccid}/deactivation_date`, { deactivation_date: past })).status).toBe(200);

    const noRefills = await failure(keepgo.refill({ iccid: line.iccid, plan: '1GB', reference: reference() }));
    expect(noRefills).toMatchObject({ code: 'no_refills_available', definite: true });
    expect(noRefills.message).toContain('No refills available');

    const noBundle = await failure(keepgo.createLine({ country: 'AQ', plan: '1GB', reference: reference() }));
    expect(noBundle).toMatchObject({ code: 'no_suitable_offer', definite: true });
    expect(noBundle.message).toContain('No suitable');
    expect(await requests('POST /line/:iccid/refill')).toBe(0);
    expect(await requests('POST /line/create')).toBe(1);
  });

  it('the emulator itself refuses a refill it does not offer with "No suitable"', async () => {
    const res = await emulatorApi('POST', `/line/${KEEPGO_DEMO_ICCID}/refill`, { amount_mb: 2048, amount_days: 30 });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ ack: 'error', message: expect.stringContaining('No suitable') });
  });

  it('the same reference never makes a second line or a second refill', async () => {
    const ref = reference();
    const linesBefore = await lineCount();
    const [first, second] = await Promise.all([
      keepgo.createLine({ country: 'BR', plan: '1GB', reference: ref }),
      keepgo.createLine({ country: 'BR', plan: '1GB', reference: ref }),
    ]);
    const third = await keepgo.createLine({ country: 'BR', plan: '1GB', reference: ref });
    expect(second.iccid).toBe(first.iccid);
    expect(third.iccid).toBe(first.iccid);
    expect(third.lpaCode).toBe(first.lpaCode);
    expect(await lineCount()).toBe(linesBefore + 1);

    const refillRef = reference();
    const before = await dataOn(KEEPGO_DEMO_ICCID);
    const balanceBefore = await balance();
    const once = await keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '3GB', reference: refillRef });
    const again = await keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '3GB', reference: refillRef });
    expect(again).toEqual(once);
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 3072);
    expect(await balance()).toBeCloseTo(balanceBefore - 5.53, 2);
    expect(await requests('POST /line/:iccid/refill')).toBe(1);

    // The emulator honours the Idempotency-Key on its own too: the same key replays the first answer.
    const direct = await emulatorApi(
      'POST',
      `/line/${KEEPGO_DEMO_ICCID}/refill`,
      { amount_mb: 3072, amount_days: 30 },
      { ...SANDBOX_HEADERS, 'Idempotency-Key': refillRef },
    );
    expect(await direct.json()).toEqual({ ack: 'success', transaction_id: once.transactionId, data_bundle_id: once.dataBundleId });
    const misuse = await emulatorApi(
      'POST',
      `/line/${KEEPGO_DEMO_ICCID}/refill`,
      { amount_mb: 1024, amount_days: 30 },
      { ...SANDBOX_HEADERS, 'Idempotency-Key': refillRef },
    );
    expect(misuse.status).toBe(422);
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 3072);
  });

  it('retries transient failures (5xx) and then succeeds, doing the work once', async () => {
    await control({ mode: 'fail', times: 2, path: 'GET /line/' });
    expect((await keepgo.lineDetails(KEEPGO_DEMO_ICCID)).iccid).toBe(KEEPGO_DEMO_ICCID);
    expect(await requests('GET /line/:iccid/get_details')).toBe(3);

    await control({ reset: true, mode: 'fail', times: 1, path: 'POST /line/' });
    const before = await dataOn(KEEPGO_DEMO_ICCID);
    const refill = await keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '1GB', reference: reference() });
    expect(refill.transactionId).toEqual(expect.any(String));
    expect(await requests('POST /line/:iccid/refill')).toBe(2);
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 1024);
  });

  it('gives up after the bounded retries with a transient error', async () => {
    await control({ mode: 'fail', path: '/account_balance' });
    const err = await failure(keepgo.accountBalance());
    expect(err).toMatchObject({ code: 'unavailable', transient: true, definite: false, httpStatus: 503 });
    expect(await requests('GET /account_balance')).toBe(1 + RETRIES);
  });

  it('a refill whose answer is lost (hang after the work) times out as transient and is found by reference, not sent again', async () => {
    await control({ mode: 'hang', times: 1, path: 'POST /line/', applyEffect: true });
    const before = await dataOn(KEEPGO_DEMO_ICCID);
    const ref = reference();
    const refill = await keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '5GB', reference: ref });

    expect(refill).toMatchObject({ reference: ref, amountMb: 5120, dataBundleId: expect.any(Number) });
    expect(await requests('POST /line/:iccid/refill')).toBe(1);
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 5120);
    expect(await keepgo.findOperation({ kind: 'refill', reference: ref, iccid: KEEPGO_DEMO_ICCID })).toEqual(refill);
  });

  it('a create whose answer is lost is asked about first and, KeepGo showing no line with our reference, never sent again: one line, outcome unknown', async () => {
    await control({ mode: 'hang', times: 1, path: 'POST /line/create', applyEffect: true });
    const linesBefore = await lineCount();
    const started = Date.now();
    const err = await failure(keepgo.createLine({ country: 'US', plan: '1GB', reference: reference() }));

    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(err).toMatchObject({ code: 'unavailable', transient: true, outcomeUnknown: true });
    expect(await requests('GET /lines')).toBeGreaterThanOrEqual(1);
    expect(await requests('POST /line/create')).toBe(1);
    expect(await lineCount()).toBe(linesBefore + 1);
  });

  it('a create turned away before KeepGo did anything (429) is sent again: one line', async () => {
    await control({ mode: 'throttle', times: 1, path: 'POST /line/create' });
    const linesBefore = await lineCount();
    const line = await keepgo.createLine({ country: 'US', plan: '1GB', reference: reference() });
    expect(line.iccid).toMatch(/^89\d{17}$/);
    expect(await requests('POST /line/create')).toBe(2);
    expect(await lineCount()).toBe(linesBefore + 1);
  });

  it('a provider that never answers ends in a transient error with an unknown outcome, and the order is sent once', async () => {
    await control({ mode: 'hang', path: 'POST /line/create' });
    const linesBefore = await lineCount();
    const ref = reference();
    const err = await failure(keepgo.createLine({ country: 'US', plan: '1GB', reference: ref }));

    expect(err).toMatchObject({ code: 'unavailable', transient: true, outcomeUnknown: true });
    expect(err.message).toContain(`no answer within ${TIMEOUT_MS} ms`);
    expect(await requests('POST /line/create')).toBe(1);
    expect(await lineCount()).toBe(linesBefore);
    await control({ reset: true });
    expect(await keepgo.findOperation({ kind: 'create', reference: ref })).toBeNull();
  });

  it('does not retry a definite refusal (our KeepGo balance is empty)', async () => {
    await control({ balanceUsd: 0 });
    const refused = await failure(keepgo.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '1GB', reference: reference() }));
    expect(refused).toMatchObject({ code: 'insufficient_balance', definite: true, httpStatus: 402 });
    expect(await requests('POST /line/:iccid/refill')).toBe(1);

    const linesBefore = await lineCount();
    expect((await failure(keepgo.createLine({ country: 'US', plan: '5GB', reference: reference() }))).code).toBe('insufficient_balance');
    expect(await requests('POST /line/create')).toBe(1);
    expect(await lineCount()).toBe(linesBefore);
  });

  it('finds earlier operations by our reference (the crash-recovery sweeper’s question)', async () => {
    const created = await keepgo.createLine({ country: 'US', plan: '1GB', reference: reference() });
    expect(await keepgo.findOperation({ kind: 'create', reference: created.reference })).toEqual(
      expect.objectContaining({ kind: 'create', iccid: created.iccid, lpaCode: created.lpaCode, bundleId: 101, amountMb: 1024 }),
    );
    const refilled = await keepgo.refill({ iccid: created.iccid, plan: '1GB', reference: reference() });
    expect(await keepgo.findOperation({ kind: 'refill', reference: refilled.reference, iccid: created.iccid })).toEqual(refilled);
    expect(await keepgo.findOperation({ kind: 'create', reference: reference() })).toBeNull();
    expect(await keepgo.findOperation({ kind: 'refill', reference: reference(), iccid: created.iccid })).toBeNull();
    expect(await keepgo.findOperation({ kind: 'refill', reference: reference(), iccid: '8900000000000000999' })).toBeNull();
  });

  it('recognises a refill that landed while we crashed before recording it, and one that was never sent', async () => {
    const line = await keepgo.createLine({ country: 'US', plan: '1GB', reference: reference() });
    const details = async () =>
      (
        (await (await emulatorApi('GET', `/line/${line.iccid}/get_details`)).json()) as {
          sim_card: { notes: string; data_bundles: { id: number }[] };
        }
      ).sim_card;
    const pendingNote = async (ref: string) => {
      const card = await details();
      const floor = Math.max(...card.data_bundles.map((b) => b.id));
      const record = { ref, kind: 'refill', state: 'pending', mb: 1024, days: 30, floor, at: new Date().toISOString() };
      await emulatorApi('PUT', `/line/${line.iccid}/update_notes`, { notes: `${card.notes}\ndg:${JSON.stringify(record)}` });
    };

    // Crashed after the refill was sent: the pending note and a newer data bundle of that size.
    const landed = reference();
    await pendingNote(landed);
    const sent = (await (
      await emulatorApi(
        'POST',
        `/line/${line.iccid}/refill`,
        { amount_mb: 1024, amount_days: 30 },
        { ...SANDBOX_HEADERS, 'Idempotency-Key': landed },
      )
    ).json()) as { data_bundle_id: number };
    expect(await keepgo.findOperation({ kind: 'refill', reference: landed, iccid: line.iccid })).toMatchObject({
      reference: landed,
      dataBundleId: sent.data_bundle_id,
      amountMb: 1024,
    });

    // Crashed before sending it: nothing landed, so the answer is "not done", and refilling now does it once.
    const lost = reference();
    await pendingNote(lost);
    expect(await keepgo.findOperation({ kind: 'refill', reference: lost, iccid: line.iccid })).toBeNull();
    const before = await dataOn(line.iccid);
    await keepgo.refill({ iccid: line.iccid, plan: '1GB', reference: lost });
    expect(await dataOn(line.iccid)).toBe(before + 1024);
  });

  it('lists lines with the account total (the admin API test) and reads the balance', async () => {
    const page = await keepgo.listLines({ page: 1, perPage: 100 });
    expect(page.total).toBe(await lineCount());
    expect(page.items.map((l) => l.iccid)).toContain(KEEPGO_DEMO_ICCID);
    expect(page).toMatchObject({ page: 1, perPage: 100, lastPage: 1 });
    const small = await keepgo.listLines({ perPage: 1 });
    expect(small).toMatchObject({ total: page.total, perPage: 1, lastPage: page.total });
    expect(small.items).toHaveLength(1);
    expect(await keepgo.accountBalance()).toEqual({ currency: 'USD', amount: '1000.00' });
  });

  it('speaks KeepGo’s HTTP: credentials in headers, JSON with ack, refusals as ack "error"', async () => {
    const denied = await emulatorApi('GET', '/lines', undefined, { apiKey: 'nope', accessToken: 'nope' });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ ack: 'error' });
    const bundles = (await (await emulatorApi('GET', '/bundles')).json()) as { ack: string; bundles: { id: number; refills: unknown[] }[] };
    expect(bundles.ack).toBe('success');
    expect(bundles.bundles.find((b) => b.id === 101)?.refills).toContainEqual({
      title: '1 GB / 30 days',
      amount_mb: 1024,
      amount_days: 30,
      price_usd: 2.5,
    });
    expect((await control({ mode: 'fail' }, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await control({ mode: 'explode' })).status).toBe(400);
  });

  it('a line another replica holds is not touched until that replica lets go, which its death does', async () => {
    const esimDb = app.get(DataSource);
    // Another replica's session, holding the demo line's lock in the middle of its own operation.
    const otherReplica = esimDb.createQueryRunner();
    const [{ pid }] = await otherReplica.query('SELECT pg_backend_pid() AS pid');
    await otherReplica.query('SELECT pg_advisory_lock($1, hashtext($2))', [KeepGoLineLocks.LOCK_CLASS, KEEPGO_DEMO_ICCID]);
    const settings: KeepGoSettings = {
      sandbox: true,
      apiKey: KEEPGO_SANDBOX_API_KEY,
      accessToken: KEEPGO_SANDBOX_ACCESS_TOKEN,
      baseUrl: `${base}${KEEPGO_SANDBOX_API_PATH}`,
      timeoutMs: TIMEOUT_MS,
      retries: RETRIES,
      retryBackoffMs: 20,
      catalogueCacheMs: 0,
      lookupMaxPages: 1,
      lineLockWaitMs: 300,
      breaker: { failures: 1000, halfOpenAfterMs: 1000 },
      pinnedBundles: new Map(),
    };
    const replica = new KeepGoEsimProvider(settings, new KeepGoLineLocks(esimDb, settings), callsOf(settings));
    const ref = reference();

    const busy = await failure(replica.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '1GB', reference: ref }));
    expect(busy).toMatchObject({ code: 'unavailable', outcomeUnknown: false });
    expect(busy.message).toContain('stayed busy');
    // Nothing was read or sent while the other replica held the line.
    expect(await requests('GET /line/:iccid/get_details')).toBe(0);
    expect(await requests('POST /line/:iccid/refill')).toBe(0);

    // The other replica dies (its session ends without unlocking): the line is free at once.
    await esimDb.query('SELECT pg_terminate_backend($1)', [pid]);
    await otherReplica.release().catch(() => undefined);
    const before = await dataOn(KEEPGO_DEMO_ICCID);
    expect(await replica.refill({ iccid: KEEPGO_DEMO_ICCID, plan: '1GB', reference: ref })).toMatchObject({ reference: ref, amountMb: 1024 });
    expect(await dataOn(KEEPGO_DEMO_ICCID)).toBe(before + 1024);
  });

  it('a live adapter classifies credentials KeepGo refuses as a definite error and does not retry', async () => {
    const settings: KeepGoSettings = {
      sandbox: false,
      apiKey: 'live-key',
      accessToken: 'live-token',
      baseUrl: `${base}${KEEPGO_SANDBOX_API_PATH}`,
      timeoutMs: TIMEOUT_MS,
      retries: RETRIES,
      retryBackoffMs: 20,
      catalogueCacheMs: 0,
      lookupMaxPages: 1,
      lineLockWaitMs: 1000,
      breaker: { failures: 1000, halfOpenAfterMs: 1000 },
      pinnedBundles: new Map(),
    };
    const live = new KeepGoEsimProvider(settings, app.get(KeepGoLineLocks), callsOf(settings));
    expect(await failure(live.accountBalance())).toMatchObject({ code: 'unauthorized', definite: true, httpStatus: 401 });
    expect(await requests('GET /account_balance')).toBe(1);
    // Nothing listens there: the connection is refused, transient, and known not to have been sent.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const gone = new KeepGoEsimProvider({ ...settings, baseUrl: `http://127.0.0.1:${port}/api/v2` }, app.get(KeepGoLineLocks), callsOf(settings));
    expect(await failure(gone.listLines())).toMatchObject({ code: 'unavailable', outcomeUnknown: false });
  });

  describe('circuit breaker', () => {
    const FAILURES = 3;
    let guarded: INestApplication;
    let provider: EsimProvider;
    let calls: ProviderCalls;
    /** The series of provider_requests_total for KeepGo, by "operation outcome". */
    const counted = async () => {
      const metric = await guarded.get(Metrics).registry.getSingleMetric('provider_requests_total')!.get();
      return Object.fromEntries(metric.values.filter((v) => v.labels.provider === 'keepgo').map((v) => [`${v.labels.operation} ${v.labels.outcome}`, v.value]));
    };
    /**
     * Calls until one reaches KeepGo (the half-open probe): waits for the breaker, not the clock.
     * Returns what that call ended with.
     */
    const probe = async (call: () => Promise<unknown>) => {
      const before = await requests('GET /account_balance');
      return waitFor(
        async () => {
          const ended = await call().then(
            () => ({ ok: true as const }),
            (err: unknown) => ({ ok: false as const, err }),
          );
          return (await requests('GET /account_balance')) > before ? ended : undefined;
        },
        { timeoutMs: 10_000, what: 'the breaker to let a probe through' },
      );
    };

    beforeAll(async () => {
      // Breaker on, tripped by 3 consecutive failures (one read's 3 attempts), half-open after 1.5 s.
      guarded = await startEsim(env({ KEEPGO_BREAKER_FAILURES: String(FAILURES), KEEPGO_BREAKER_HALF_OPEN_MS: '1500' }));
      provider = guarded.get<EsimProvider>(ESIM_PROVIDER);
      calls = guarded.get<ProviderCalls>(KEEPGO_CALLS);
    });
    afterAll(() => guarded?.close());

    it('opens after consecutive failures, then refuses calls unsent, lets one probe through when half-open, and closes once KeepGo answers', async () => {
      expect(calls.circuit).toBe('closed');
      const lines = await lineCount();
      expect((await control({ mode: 'fail' })).status).toBe(200);

      // One read and its 2 retries: 3 failures reach KeepGo, and the breaker opens.
      expect(await failure(provider.accountBalance())).toMatchObject({ code: 'unavailable', paused: false });
      expect(await requests('GET /account_balance')).toBe(FAILURES);
      expect(calls.circuit).toBe('open');

      // Open: calls fail at once as unavailable, known not to have been sent, and KeepGo sees nothing.
      expect(await failure(provider.accountBalance())).toMatchObject({ code: 'unavailable', paused: true, outcomeUnknown: false });
      const ref = reference();
      const refused = await failure(provider.createLine({ country: 'US', plan: '1GB', reference: ref }));
      expect(refused).toMatchObject({ code: 'unavailable', paused: true, outcomeUnknown: false });
      expect(await requests('GET /account_balance')).toBe(FAILURES);
      expect(await requests('POST /line/create')).toBe(0);

      // Half-open while KeepGo still fails: exactly one probe reaches it, and the breaker opens again.
      // (its retry, after the probe failed, is refused unsent)
      expect(await probe(() => provider.accountBalance())).toMatchObject({ ok: false, err: { code: 'unavailable' } });
      expect(await requests('GET /account_balance')).toBe(FAILURES + 1);
      expect(calls.circuit).toBe('open');

      // KeepGo recovers: the next probe goes through and closes the breaker.
      expect((await control({ mode: 'ok' })).status).toBe(200);
      expect(await probe(() => provider.accountBalance())).toEqual({ ok: true });
      expect(await requests('GET /account_balance')).toBe(FAILURES + 2);
      expect(calls.circuit).toBe('closed');

      // The order refused while open is placed once now: one line, one create sent.
      const line = await provider.createLine({ country: 'US', plan: '1GB', reference: ref });
      expect(line.reference).toBe(ref);
      expect(await requests('POST /line/create')).toBe(1);
      expect(await lineCount()).toBe(lines + 1);

      const seen = await counted();
      expect(seen['GET /account_balance failed']).toBe(FAILURES + 1);
      expect(seen['GET /account_balance rejected']).toBeGreaterThanOrEqual(1);
      expect(seen['GET /account_balance ok']).toBe(1);
      expect(seen['POST /line/create ok']).toBe(1);
      const state = await guarded.get(Metrics).registry.getSingleMetric('provider_circuit_state')!.get();
      expect(state.values).toEqual([expect.objectContaining({ labels: { provider: 'keepgo' }, value: 0 })]);
    });

    it('does not count a refusal KeepGo answered: an unknown line leaves the breaker closed', async () => {
      for (let i = 0; i < FAILURES + 1; i++) {
        expect((await failure(provider.lineDetails('8900000000000000999'))).code).toBe('line_not_found');
      }
      expect(calls.circuit).toBe('closed');
      expect((await counted())['GET /line/:iccid/get_details refused']).toBeGreaterThanOrEqual(FAILURES + 1);
    });
  });

  describe('across restarts and in production', () => {
    it('keeps the emulator’s lines when it and the service restart; production uses it only when sandboxes are allowed', async () => {
      const line = await keepgo.createLine({ country: 'US', plan: '1GB', reference: reference() });
      await app.close();
      await sandboxes.stop();
      sandboxes = await startSandboxesUnderTest(ns);

      expect(() => startEsim(env({ NODE_ENV: 'production' }))).toThrow(ConfigError);
      expect(() => startEsim(env({ NODE_ENV: 'production' }))).toThrow(/KEEPGO_API_KEY is required/);

      app = await startEsim(env({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }));
      keepgo = app.get<EsimProvider>(ESIM_PROVIDER);
      db = sandboxes.db('keepgo');
      base = sandboxes.url;
      expect(keepgo.sandbox).toBe(true);
      expect(await keepgo.lineDetails(line.iccid)).toMatchObject({ iccid: line.iccid, lpaCode: line.lpaCode });
      expect((await keepgo.lineDetails(KEEPGO_DEMO_ICCID)).status).toBe('Activated');
    });

    it('the service serves no emulator of its own, and with credentials the adapter goes where KEEPGO_BASE_URL says', async () => {
      const emulator = `${base}${KEEPGO_SANDBOX_API_PATH}`;
      const live = await startEsim(
        env({ KEEPGO_API_KEY: KEEPGO_SANDBOX_API_KEY, KEEPGO_ACCESS_TOKEN: KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_BASE_URL: emulator }),
      );
      try {
        const provider = live.get<EsimProvider>(ESIM_PROVIDER);
        expect(provider.sandbox).toBe(false);
        expect((await fetch(`${httpBase(live)}/keepgo/_control`, { headers: SANDBOX_HEADERS })).status).toBe(404);
        expect((await fetch(`${httpBase(live)}${KEEPGO_SANDBOX_API_PATH}/lines`, { headers: SANDBOX_HEADERS })).status).toBe(404);
        expect((await provider.listLines()).total).toBe(await lineCount());
      } finally {
        await live.close();
      }
    });
  });
});
