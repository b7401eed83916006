import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { messageResponseSchema } from './auth.http';

/** One signed-in session of the account, as /profile lists it. */
export const activeSessionSchema = z.object({
  /** An opaque name for the session (a hash of its id, never the id itself). */
  id: z.string(),
  /** Whether this is the session asking. */
  current: z.boolean(),
  /** From the User-Agent at sign-in, e.g. "Chrome 131", "Android 14"; null when unknown. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionsResponseSchema = z.object({ sessions: z.array(activeSessionSchema) });
export type ActiveSessionsResponse = z.infer<typeof activeSessionsResponseSchema>;

export const endedSessionsResponseSchema = messageResponseSchema.extend({ ended: z.number().int().min(0) });
export type EndedSessionsResponse = z.infer<typeof endedSessionsResponseSchema>;

export const sessionIdParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Unknown session') });

/** The account's sessions (docs/accounts.md). */
export const SessionRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/user/sessions',
    tag: 'Account',
    auth: 'session',
    summary: "The account's active sessions, newest first",
    response: activeSessionsResponseSchema,
  }),
  endOne: defineRoute({
    method: 'DELETE',
    path: '/api/user/sessions/{id}',
    reasons: ['session_not_found', 'session_is_current'],
    tag: 'Account',
    auth: 'session',
    summary: 'End one other session of the account',
    params: sessionIdParamsSchema,
    response: endedSessionsResponseSchema,
    errors: { 404: 'No such session of this account (reason `session_not_found`).', 409: 'It is the session asking: sign out instead (reason `session_is_current`).' },
  }),
  endOthers: defineRoute({
    method: 'DELETE',
    path: '/api/user/sessions',
    tag: 'Account',
    auth: 'session',
    summary: 'End every session of the account but this one',
    response: endedSessionsResponseSchema,
  }),
};
