import { z } from 'zod';
import { planPriceSchema, PREPAID_PLANS } from '@esim/contracts';
import { startSystem, type System } from '../support/system';

/**
 * Plan prices per currency (docs/payments.md, "Currencies and prices"): the public `GET /api/plans`
 * answers the catalogue's prices, in reais for Brazil and US dollars for everyone else, without a
 * session. Only the gateway runs: the answer is the catalogue it is built with.
 */
describe('GET /api/plans', () => {
  let sys: System;

  beforeAll(async () => {
    sys = await startSystem({ services: [] });
  });
  afterAll(() => sys?.stop());

  const plans = async (query: string) => {
    const res = await sys.client().get(`/api/plans${query}`);
    expect(res.status).toBe(200);
    return z.array(planPriceSchema).parse(res.json());
  };
  const catalogue = (currency: 'USD' | 'BRL') => PREPAID_PLANS.map((p) => ({ id: p.id, amountGB: p.amountGB, priceCents: p.prices[currency], currency }));

  it('prices the plans in reais for Brazil, without a session', async () => {
    const answer = await plans('?country=BR');
    expect(answer).toEqual(catalogue('BRL'));
    expect(answer.find((p) => p.id === '3GB')).toEqual({ id: '3GB', amountGB: 3, priceCents: 2490, currency: 'BRL' });
    expect(await plans('?country=br')).toEqual(answer);
  });

  it('prices the plans in US dollars for the United States, any other country and no country', async () => {
    const usd = catalogue('USD');
    expect(await plans('?country=US')).toEqual(usd);
    expect(usd.find((p) => p.id === '1GB')).toMatchObject({ priceCents: 299, currency: 'USD' });
    expect(await plans('?country=PT')).toEqual(usd);
    expect(await plans('')).toEqual(usd);
  });

  it('refuses a country that is not a two-letter code with a 400', async () => {
    for (const bad of ['Brazil', 'B', 'B1', 'BRA', '']) {
      const res = await sys.client().get(`/api/plans?country=${encodeURIComponent(bad)}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.stringContaining('country') });
    }
    const twice = await sys.client().get('/api/plans?country=BR&country=US');
    expect(twice.status).toBe(400);
  });
});
