import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';

export const unsubscribeQuerySchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200, 'token must be at most 200 characters'),
});

export const unsubscribeResponseSchema = z.object({ unsubscribed: z.literal(true) });

export const EmailPreferenceRoutes = {
  /**
   * The target of a promotional email's `List-Unsubscribe` header and of its unsubscribe link
   * (RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` as a form to this
   * URL). A form from a mail client, with no session and no Origin of ours, is
   * what it takes; the signed token is the only credential, so the CSRF checks of /api let it through.
   */
  unsubscribe: defineRoute({
    method: 'POST',
    path: '/api/mail/unsubscribe',
    reasons: ['invalid_unsubscribe_link', 'too_many_attempts'],
    tag: 'Account',
    auth: 'public',
    summary: 'Turns promotional email off for the account the signed token names (one-click unsubscribe)',
    query: unsubscribeQuerySchema,
    response: unsubscribeResponseSchema,
    errors: {
      400: 'The token is missing or was not signed by us.',
      429: 'Too many unsubscribe requests from this client network (`code: rate_limited`).',
    },
  }),
};
