/**
 * KeepGo reseller API v2 wire shapes (JSON, snake_case), as docs/keepgo.md describes them. Both the
 * adapter and the emulator use these, so they cannot drift apart. Fields the adapter does not read
 * are optional: real answers carry more.
 */

export const KEEPGO_LIVE_BASE_URL = 'https://myaccount.keepgo.com/api/v2';
/** Where the emulator is served by the sandboxes process (SANDBOXES_URL). */
export { SANDBOX_KEEPGO_PATH as KEEPGO_SANDBOX_PATH, SANDBOX_KEEPGO_API_PATH as KEEPGO_SANDBOX_API_PATH } from '@esim/contracts';
/** Credentials the emulator accepts; they are public, like every sandbox secret in this repository. */
export const KEEPGO_SANDBOX_API_KEY = 'keepgo-sandbox-api-key';
export const KEEPGO_SANDBOX_ACCESS_TOKEN = 'keepgo-sandbox-access-token';
/** The demo line every sandbox knows (product spec): refillable. */
export const KEEPGO_DEMO_ICCID = '8900000000000000001';

export interface KeepGoAnswer {
  ack: string;
  message?: string;
}

export interface KeepGoRefillOption {
  title: string;
  amount_mb: number;
  /** null for volume bundles that never expire. */
  amount_days: number | null;
  price_usd: number;
}

export interface KeepGoBundle {
  id: number;
  name: string;
  bundle_type: 'country' | 'regional' | string;
  /** Flag image, `…/img/flags/3x2/<cc>.svg`: the only place a bundle names an ISO country code. */
  img?: string;
  description?: string;
  /** Country names in English. */
  coverage: string[];
  refills: KeepGoRefillOption[];
}

export interface KeepGoDataBundle {
  id: number;
  /** A string ('Active') or a number (1 = active) depending on the account: accept both. */
  status: string | number;
  allowed_usage_kb: number;
  active_kb?: number;
  remaining_usage_kb: number;
  validity?: number | null;
  assigned_at?: string | null;
  activated_at?: string | null;
  terminated_at?: string | null;
  expire_at?: string | null;
}

export interface KeepGoSimCard {
  iccid: string;
  status: string;
  notes: string | null;
  deactivation_date: string | null;
  allowed_usage_kb: number | null;
  remaining_usage_kb: number | null;
  remaining_days: number | null;
  bundle: string | null;
  data_bundles?: KeepGoDataBundle[];
}

export interface KeepGoDetailedSimCard extends KeepGoSimCard {
  msisdn: string | null;
  lpa_code: string | null;
  bundle_id: number | null;
}

export interface KeepGoLinesAnswer extends KeepGoAnswer {
  sim_cards: {
    from: number | null;
    to: number | null;
    last_page: number;
    per_page: number;
    total: number;
    current_page: number;
    items: KeepGoSimCard[];
  };
}

export interface KeepGoLineDetailsAnswer extends KeepGoAnswer {
  sim_card: KeepGoDetailedSimCard;
}

export interface KeepGoAvailableRefillsAnswer extends KeepGoAnswer {
  available_refills: KeepGoRefillOption[];
}

export interface KeepGoRefillRequest {
  amount_mb: number;
  amount_days: number | null;
}

export interface KeepGoRefillAnswer extends KeepGoAnswer {
  data_bundle_id: number;
  transaction_id: string;
}

export interface KeepGoCreateLineRequest {
  bundle_id: number;
  refill_mb: number;
  /** Omitted for volume bundles without expiry. */
  refill_days?: number | null;
  count?: number;
}

export interface KeepGoCreateLineAnswer extends KeepGoAnswer {
  sim_card: { iccid: string; lpa_code: string };
  transaction_id?: string;
  data_bundle_id?: number;
}

export interface KeepGoBundlesAnswer extends KeepGoAnswer {
  bundles: KeepGoBundle[];
}

export interface KeepGoAccountBalanceAnswer extends KeepGoAnswer {
  /** A decimal string, e.g. "8.63". */
  account_balance: string;
}
