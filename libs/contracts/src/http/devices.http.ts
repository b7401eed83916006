import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { singleLineText } from './text.http';

/*
 * Compatibility before earning (docs/wallet.md, "Will it work on my phone?"): whether a phone
 * model can hold an eSIM, asked before the user spends time earning points for one.
 */

/**
 * `GET /api/devices/compatibility?model=&brand=`: `model` as the browser reports it (Android's
 * User-Agent Client Hints `model`, e.g. "SM-G991B" or "Pixel 7") or a marketing name ("iPhone XS");
 * `brand` is optional and only settles a name two makers share.
 */
export const deviceCompatibilityQuerySchema = z.object({
  model: singleLineText({ error: 'model is required' }).trim().min(1, 'model is required').max(100, 'model must be at most 100 characters'),
  brand: singleLineText({ error: 'brand must be text' }).trim().max(50, 'brand must be at most 50 characters').optional(),
});
export type DeviceCompatibilityQuery = z.input<typeof deviceCompatibilityQuerySchema>;

/**
 * The answer: `compatible` is true (the model has an eSIM), false (it has none) or null (the model
 * is not in the list: unknown). `model` echoes the question; `name` is the matched device's
 * marketing name (null when unknown).
 */
export const deviceCompatibilitySchema = z.object({
  compatible: z.boolean().nullable(),
  model: z.string(),
  name: z.string().nullable(),
});
export type DeviceCompatibility = z.infer<typeof deviceCompatibilitySchema>;

export const DeviceRoutes = {
  compatibility: defineRoute({
    method: 'GET',
    path: '/api/devices/compatibility',
    reasons: ['too_many_attempts'],
    tag: 'Redemption',
    auth: 'public',
    summary: "Whether a phone model supports eSIM (true, false, or null when the model is not in the product's device list)",
    query: deviceCompatibilityQuerySchema,
    response: deviceCompatibilitySchema,
    errors: { 429: 'Too many questions from this client network (`code: rate_limited`).' },
  }),
};
