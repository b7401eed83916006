import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';

/**
 * `GET /api/admin/keepgo/test`: the supplier connection test (spec section 7). `success` and
 * `apiStatus.lines === 'connected'` when the eSIM provider answered; otherwise `success: false`
 * with the provider's failure in `message` (the SPA shows it in its failure toast).
 */
export const keepgoTestResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** `sandbox` when the esim service talks to its KeepGo emulator. */
  mode: z.enum(['sandbox', 'live']),
  lines: z.object({ data: z.object({ sim_cards: z.object({ total: z.number().int().nullable() }) }) }),
  apiStatus: z.object({ lines: z.enum(['connected', 'failed']) }),
});
export type KeepgoTestResponse = z.infer<typeof keepgoTestResponseSchema>;

export const AdminKeepgoRoutes = {
  test: defineRoute({
    method: 'GET',
    path: '/api/admin/keepgo/test',
    reasons: ['service_unavailable', 'rpc_timeout'],
    tag: 'Admin',
    auth: 'admin',
    summary: 'Test the connection to the eSIM supplier (KeepGo): lists one page of lines',
    response: keepgoTestResponseSchema,
    errors: { 503: 'The esim service did not answer.' },
  }),
};
