import { z } from 'zod';
import { iccidSchema } from '../http/redemption.http';
import { lineUsageSchema } from '../http/wallet.http';
import { defineRpc } from '../rpc/rpc-definition';

/** The My eSIMs wallet (docs/wallet.md). The acting user (meta.userId) must hold the line. */
export const EsimWalletRpc = {
  /**
   * What is left on one of the acting user's lines, from the provider. An answer younger than the
   * cache time is reused; `refresh` asks again unless the last answer is only seconds old.
   * 404 `line_not_found` when the line is not the user's; 503 `provider_unavailable`.
   */
  getLineUsage: defineRpc('esim', 'get-line-usage', z.object({ iccid: iccidSchema, refresh: z.boolean().default(false) }), lineUsageSchema),
} as const;
