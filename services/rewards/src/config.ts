import { z } from 'zod';
import { envBoolean, envInt, envList, platformConfigSchema } from '@esim/platform';

const secret = (meaning: string) => z.string().optional().describe(meaning);
const allowedIps = (wall: string) =>
  envList().describe(
    `Source IPs allowed to call the ${wall} postback (comma-separated; empty: any). Checked in addition to the signature.`,
  );

export const rewardsConfigSchema = platformConfigSchema.extend({
  PUBLIC_URL: z
    .string()
    .url()
    .default('http://localhost:3000')
    .describe('Where providers reach the gateway; the sandbox offer walls send their postbacks to PUBLIC_URL/webhooks/offerwalls/<wall>.'),
  OFFERWALLS_SANDBOX: envBoolean(true).describe(
    'Emulate every offer wall that has no credentials (refused in production unless ALLOW_SANDBOX_IN_PRODUCTION).',
  ),
  POSTBACK_MAX_POINTS: envInt(50_000, 1).describe('Largest reward one postback may credit; a larger amount is rejected and recorded.'),

  RAPIDOREACH_APP_ID: secret('RapidoReach app id.'),
  RAPIDOREACH_APP_KEY: secret('RapidoReach app key (API key): the checksum of the user uid.'),
  RAPIDOREACH_APP_SECRET: secret('RapidoReach app secret (transaction key): signs postbacks (txnHash).'),
  RAPIDOREACH_ALLOWED_IPS: allowedIps('RapidoReach'),

  CPX_APP_ID: z.string().regex(/^\d+$/, 'must be the numeric CPX app id').optional().describe('CPX Research app id (numeric).'),
  CPX_SECURE_HASH: secret('CPX Research app secure hash: signs the widget user and postbacks.'),
  CPX_ALLOWED_IPS: allowedIps('CPX Research'),

  BITLABS_APP_TOKEN: secret('BitLabs app token (public, in the wall URL).'),
  BITLABS_APP_SECRET: secret('BitLabs app secret: HMAC-SHA1 key of callback URLs.'),
  BITLABS_ALLOWED_IPS: allowedIps('BitLabs'),

  LOOTABLY_PLACEMENT_ID: secret('Lootably placement id.'),
  LOOTABLY_POSTBACK_SECRET: secret('Lootably postback secret: signs postbacks (SHA-256).'),
  LOOTABLY_ALLOWED_IPS: allowedIps('Lootably'),

  TOROX_PUB_ID: secret('Torox (OfferToro) publisher id.'),
  TOROX_APP_ID: secret('Torox (OfferToro) app placement id.'),
  TOROX_SECRET_KEY: secret('Torox (OfferToro) app placement secret key: signs postbacks (sig).'),
  TOROX_ALLOWED_IPS: allowedIps('Torox'),
});
export type RewardsConfig = z.infer<typeof rewardsConfigSchema>;
