import type { KeepGoBundle, KeepGoRefillOption } from './keepgo-api';
import { chooseBundle, chooseRefill, flagCountry, planRefill } from './plan-offers';

const refill = (amount_mb: number, amount_days: number | null, price_usd = 5): KeepGoRefillOption => ({
  title: `${amount_mb} MB`,
  amount_mb,
  amount_days,
  price_usd,
});
const bundle = (id: number, over: Partial<KeepGoBundle>): KeepGoBundle => ({
  id,
  name: `B${id}`,
  bundle_type: 'country',
  coverage: [],
  refills: [],
  ...over,
});

describe('plans as KeepGo refills', () => {
  it('maps each catalogue tier to binary megabytes for the catalogue validity', () => {
    expect(['1GB', '3GB', '5GB', '10GB'].map((t) => planRefill(t as '1GB'))).toEqual([
      { amountMb: 1024, amountDays: 30 },
      { amountMb: 3072, amountDays: 30 },
      { amountMb: 5120, amountDays: 30 },
      { amountMb: 10240, amountDays: 30 },
    ]);
    expect(() => planRefill('2GB' as '1GB')).toThrow(/unknown plan tier/);
  });

  it('picks the exact size and validity, else the same size without expiry, never less', () => {
    const wanted = { amountMb: 3072, amountDays: 30 };
    expect(chooseRefill([refill(3072, null), refill(3072, 30), refill(5120, 30)], wanted)).toEqual(refill(3072, 30));
    expect(chooseRefill([refill(3072, null), refill(1024, 30)], wanted)).toEqual(refill(3072, null));
    expect(chooseRefill([refill(3072, 7), refill(3000, 30), refill(5120, 30)], wanted)).toBeUndefined();
  });
});

describe('countries as KeepGo bundles', () => {
  const wanted = { amountMb: 1024, amountDays: 30 };
  const us = bundle(1, { img: 'https://myaccount.keepgo.com/img/flags/3x2/us.svg', refills: [refill(1024, 30, 4)] });
  const usByName = bundle(2, { coverage: ['United States'], refills: [refill(1024, 30, 3)] });
  const americas = bundle(3, { bundle_type: 'regional', coverage: ['United States', 'Mexico'], refills: [refill(1024, 30, 1)] });
  const brNoPlan = bundle(4, { img: 'https://x/flags/3x2/br.svg', refills: [refill(3072, 30)] });

  it('reads the ISO code from the flag file', () => {
    expect(flagCountry('https://myaccount.keepgo.com/img/flags/3x2/gb.svg')).toBe('GB');
    expect(flagCountry(undefined)).toBeNull();
  });

  it('prefers a single-country bundle (by flag or English name) over a regional one, then the cheapest', () => {
    expect(chooseBundle([americas, us, usByName], 'US', wanted, new Map())?.bundle.id).toBe(2);
    expect(chooseBundle([americas, us], 'US', wanted, new Map())?.bundle.id).toBe(1);
    expect(chooseBundle([americas, us], 'MX', wanted, new Map())?.bundle.id).toBe(3);
  });

  it('honours the operator’s pin, and finds nothing when no bundle offers the plan for the country', () => {
    expect(chooseBundle([americas, us, usByName], 'US', wanted, new Map([['US', 3]]))?.bundle.id).toBe(3);
    expect(chooseBundle([us, brNoPlan], 'BR', wanted, new Map())).toBeUndefined();
    expect(chooseBundle([us], 'AQ', wanted, new Map())).toBeUndefined();
  });
});
