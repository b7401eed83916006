import type { KeepGoBundle, KeepGoRefillOption } from '@esim/esim/dist/keepgo/keepgo-api';

const FLAG = (cc: string) => `https://myaccount.keepgo.com/img/flags/3x2/${cc}.svg`;

/** Wholesale prices in USD of the emulator's refills (made up, in KeepGo's range). */
const STANDARD_REFILLS: KeepGoRefillOption[] = [
  { title: '1 GB / 30 days', amount_mb: 1024, amount_days: 30, price_usd: 2.5 },
  { title: '3 GB / 30 days', amount_mb: 3072, amount_days: 30, price_usd: 5.53 },
  { title: '5 GB / 30 days', amount_mb: 5120, amount_days: 30, price_usd: 8.1 },
  { title: '10 GB / 30 days', amount_mb: 10240, amount_days: 30, price_usd: 14 },
];

const country = (id: number, name: string, cc: string, countryName: string): KeepGoBundle => ({
  id,
  name,
  bundle_type: 'country',
  img: FLAG(cc),
  description: `${countryName} data eSIM`,
  coverage: [countryName],
  refills: STANDARD_REFILLS,
});

/**
 * The emulator's bundle catalogue, shaped like KeepGo's (internal star names, flags, coverage by
 * country name, refills). It covers the countries the product sells; any other country has no
 * suitable bundle, which is how tests reach that refusal.
 */
export const SANDBOX_BUNDLES: readonly KeepGoBundle[] = [
  country(101, 'Orion', 'us', 'United States'),
  country(102, 'Andromeda', 'mx', 'Mexico'),
  country(103, 'Aquila', 'br', 'Brazil'),
  country(104, 'Lyra', 'gb', 'United Kingdom'),
  country(105, 'Cygnus', 'de', 'Germany'),
  country(106, 'Draco', 'fr', 'France'),
  country(107, 'Pegasus', 'jp', 'Japan'),
  country(108, 'Perseus', 'ca', 'Canada'),
  country(109, 'Phoenix', 'au', 'Australia'),
  country(110, 'Hydra', 'it', 'Italy'),
  country(111, 'Vela', 'es', 'Spain'),
  country(112, 'Carina', 'nl', 'Netherlands'),
  {
    id: 201,
    name: 'Centaurus',
    bundle_type: 'regional',
    img: FLAG('eu'),
    description: 'Europe data eSIM, no expiry',
    coverage: ['France', 'Germany', 'Italy', 'Netherlands', 'Portugal', 'Spain'],
    refills: [
      { title: '1 GB', amount_mb: 1024, amount_days: null, price_usd: 3.2 },
      { title: '3 GB', amount_mb: 3072, amount_days: null, price_usd: 7.4 },
    ],
  },
];

/** The bundle of the seeded demo line. */
export const DEMO_BUNDLE_ID = 101;
/** The emulator account's opening balance. */
export const SANDBOX_OPENING_BALANCE_USD = '1000.00';
