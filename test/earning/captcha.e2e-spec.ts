import http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { signUpEarner } from './earning-support';

const SERVICES = ['identity', 'rewards', 'esim', 'notifications'] as const;

describe('captcha in sandbox mode (no CAPTCHA_SECRET): the siteverify adapter against the local emulator', () => {
  let sys: System;
  let client: HttpClient;

  beforeAll(async () => {
    sys = await startSystem({ services: [...SERVICES] });
    client = sys.client();
    await signUpEarner(client, sys.mail);
  });
  afterAll(() => sys?.stop());

  const verify = (token: unknown, c = client) => c.post('/api/verify-captcha', { token });

  it('tells the widget its site key and that captchas are emulated', async () => {
    expect((await sys.client().get('/api/captcha/config')).json()).toEqual({
      provider: 'turnstile',
      siteKey: '1x00000000000000000000AA',
      sandbox: true,
    });
  });

  it('marks the session verified for 5 minutes; a sandbox token passes once, the dummy token always', async () => {
    const res = await verify('sandbox-pass-one');
    expect(res.status).toBe(200);
    const until = Date.parse(res.json().verifiedUntil);
    expect(until - Date.now()).toBeGreaterThan(4.9 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const replay = await verify('sandbox-pass-one');
    expect(replay.status).toBe(400);
    expect(replay.json().message).toBe('Captcha expired. Please verify again.');
    expect((await verify('XXXX.DUMMY.TOKEN.XXXX')).status).toBe(200);
    expect((await verify('XXXX.DUMMY.TOKEN.XXXX')).status).toBe(200);
  });

  it('fails other tokens with the spec’s messages, and refuses visitors and form posts', async () => {
    const bogus = await verify('not-a-real-token');
    expect(bogus.status).toBe(400);
    expect(bogus.json().message).toBe('Captcha verification failed. Please try again.');
    expect((await verify('')).json().message).toBe('Please complete the captcha verification first');
    expect((await verify(42)).status).toBe(400);
    expect((await verify('sandbox-pass-visitor', sys.client())).status).toBe(401);
    const asForm = await client.request('POST', '/api/verify-captcha', undefined, {
      body: 'token=sandbox-pass-x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(asForm.status).toBe(415);
  });

  it('the emulator (the sandboxes app) speaks siteverify: form-encoded secret and response in, JSON with error codes out', async () => {
    const siteverify = (fields: Record<string, string>) =>
      fetch(`${sys.sandboxes.url}/captcha/siteverify`, { method: 'POST', body: new URLSearchParams(fields) }).then((r) => r.json());
    const secret = '1x0000000000000000000000000000000AA';
    expect(await siteverify({ secret, response: 'XXXX.DUMMY.TOKEN.XXXX', remoteip: '203.0.113.1' })).toMatchObject({
      success: true,
      'error-codes': [],
      hostname: '127.0.0.1',
    });
    expect(await siteverify({ secret: 'wrong', response: 'XXXX.DUMMY.TOKEN.XXXX' })).toEqual({
      success: false,
      'error-codes': ['invalid-input-secret'],
    });
    expect(await siteverify({ secret })).toEqual({ success: false, 'error-codes': ['missing-input-response'] });
    expect(await siteverify({ response: 'x' })).toEqual({ success: false, 'error-codes': ['missing-input-secret'] });
    // Not through the public edge: only the gateway's server-side calls reach it.
    expect((await fetch(`${sys.url}/sandbox/captcha/siteverify`, { method: 'POST', body: new URLSearchParams({ secret, response: 'x' }) })).status).toBe(404);
  });
});

describe('captcha with a live secret: what the adapter sends to siteverify', () => {
  let sys: System;
  let client: HttpClient;
  let turnstile: http.Server;
  const received: URLSearchParams[] = [];

  beforeAll(async () => {
    // A stand-in for challenges.cloudflare.com: records each form and answers like Turnstile.
    turnstile = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        received.push(form);
        const token = form.get('response');
        const answer =
          token === 'good'
            ? { success: true, 'error-codes': [] }
            : { success: false, 'error-codes': [token === 'ours' ? 'invalid-input-secret' : 'invalid-input-response'] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => turnstile.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(turnstile.address() as AddressInfo).port}/turnstile/v0/siteverify`;
    sys = await startSystem({
      services: [...SERVICES],
      gatewayEnv: { CAPTCHA_SECRET: 'live-secret', CAPTCHA_SITE_KEY: 'live-site-key', CAPTCHA_VERIFY_URL: verifyUrl },
    });
    client = sys.client();
    await signUpEarner(client, sys.mail);
  });
  afterAll(async () => {
    await sys?.stop();
    if (turnstile.listening) await new Promise((resolve) => turnstile.close(resolve));
  });

  it('posts secret, response and remoteip form-encoded and trusts its answer', async () => {
    expect((await client.post('/api/verify-captcha', { token: 'good' })).status).toBe(200);
    const form = received.at(-1)!;
    expect(Object.fromEntries(form)).toEqual({ secret: 'live-secret', response: 'good', remoteip: '127.0.0.1' });
    expect((await client.post('/api/verify-captcha', { token: 'bad' })).json().message).toBe(
      'Captcha verification failed. Please try again.',
    );
    expect((await sys.client().get('/api/captcha/config')).json()).toEqual({
      provider: 'turnstile',
      siteKey: 'live-site-key',
      sandbox: false,
    });
  });

  it('answers 503 when siteverify rejects our secret or cannot be reached, and serves no emulator', async () => {
    const ours = await client.post('/api/verify-captcha', { token: 'ours' });
    expect(ours.status).toBe(503);
    expect(ours.json().message).toBe('Verification failed. Please try again.');
    expect(
      (await fetch(`${sys.url}/sandbox/captcha/siteverify`, { method: 'POST', body: new URLSearchParams({ secret: 'x', response: 'y' }) }))
        .status,
    ).toBe(404);
    await new Promise((resolve) => turnstile.close(resolve));
    turnstile.closeAllConnections();
    expect((await client.post('/api/verify-captcha', { token: 'good' })).status).toBe(503);
  });
});
