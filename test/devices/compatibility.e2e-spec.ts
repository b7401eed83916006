import { deviceCompatibilitySchema } from '@esim/contracts';
import { startSystem, type System } from '../support/system';

/**
 * Compatibility before earning (docs/wallet.md, "Will it work on my phone?"): the public
 * `GET /api/devices/compatibility` answers from the device list kept in the repository, needs no
 * session, and is counted per client network. Only the gateway runs: the answer needs no service.
 */
describe('phone compatibility', () => {
  let sys: System;

  beforeAll(async () => {
    sys = await startSystem({ services: [], gatewayEnv: { RATE_LIMIT_DEVICES_IP: '40/3600' } });
  });
  afterAll(() => sys?.stop());

  const ask = async (query: Record<string, string>) => {
    const res = await sys.client().get(`/api/devices/compatibility?${new URLSearchParams(query)}`);
    return res;
  };
  const verdict = async (query: Record<string, string>) => {
    const res = await ask(query);
    expect(res.status).toBe(200);
    return deviceCompatibilitySchema.parse(res.json());
  };

  it('says yes for the phones the legal text names, without a session', async () => {
    expect(await verdict({ model: 'iPhone XS' })).toEqual({ compatible: true, model: 'iPhone XS', name: 'iPhone XS' });
    expect(await verdict({ model: 'SM-G981B' })).toEqual({ compatible: true, model: 'SM-G981B', name: 'Galaxy S20' });
    expect(await verdict({ model: 'Galaxy S20' })).toMatchObject({ compatible: true, name: 'Galaxy S20' });
    expect(await verdict({ model: 'Pixel 3' })).toEqual({ compatible: true, model: 'Pixel 3', name: 'Pixel 3' });
    expect(await verdict({ model: 'Pixel 7', brand: 'Google' })).toMatchObject({ compatible: true, name: 'Pixel 7' });
  });

  it('says no for phones without an eSIM', async () => {
    expect(await verdict({ model: 'iPhone 8' })).toEqual({ compatible: false, model: 'iPhone 8', name: 'iPhone 8' });
    expect(await verdict({ model: 'SM-G960F' })).toEqual({ compatible: false, model: 'SM-G960F', name: 'Galaxy S9' });
    expect(await verdict({ model: 'Galaxy S9', brand: 'Samsung' })).toMatchObject({ compatible: false, name: 'Galaxy S9' });
    // Budget phones sold in Brazil and South Asia, as their browsers report them.
    expect(await verdict({ model: 'SM-A145M' })).toMatchObject({ compatible: false, name: 'Galaxy A14' });
    expect(await verdict({ model: 'moto g(8)' })).toMatchObject({ compatible: false, name: 'moto g8' });
    expect(await verdict({ model: '2201117TG' })).toMatchObject({ compatible: false, name: 'Redmi Note 11' });
  });

  it('matches whatever the case, spacing, region suffix or brand prefix', async () => {
    expect(await verdict({ model: '  sm-g991b/ds ' })).toEqual({ compatible: true, model: 'sm-g991b/ds', name: 'Galaxy S21' });
    expect(await verdict({ model: 'Samsung Galaxy S20+' })).toMatchObject({ compatible: true, name: 'Galaxy S20+' });
    expect(await verdict({ model: 'IPHONE   xs max' })).toMatchObject({ compatible: true, name: 'iPhone XS Max' });
    expect(await verdict({ model: 'SM-A556E', brand: 'samsung' })).toMatchObject({ compatible: true, name: 'Galaxy A55 5G' });
  });

  it('answers null for a model the list does not know', async () => {
    expect(await verdict({ model: 'Nokia 3310' })).toEqual({ compatible: null, model: 'Nokia 3310', name: null });
    expect(await verdict({ model: 'SM-X999Z', brand: 'Samsung' })).toEqual({ compatible: null, model: 'SM-X999Z', name: null });
  });

  it('refuses a missing or oversized model with a 400 naming it', async () => {
    const missing = await ask({});
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation', message: 'model is required' });
    const blank = await ask({ model: '   ' });
    expect(blank.status).toBe(400);
    const long = await ask({ model: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.json().message).toBe('model must be at most 100 characters');
  });

  it('counts the questions of a client network: past the limit a 429 with Retry-After', async () => {
    // Earlier tests of this file asked 25 answered questions of the 40 allowed (400s are not counted).
    let status = 200;
    let asked = 0;
    while (status === 200 && asked < 100) {
      status = (await ask({ model: 'Pixel 8' })).status;
      asked += 1;
    }
    expect(status).toBe(429);
    const limited = await ask({ model: 'Pixel 8' });
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
