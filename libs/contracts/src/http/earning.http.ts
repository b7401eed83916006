import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { taskPageQuerySchema, taskPageSchema, taskSchema } from '../rewards/tasks';
import { offerwallsResponseSchema } from '../webhooks/offerwalls';
import { text } from './text.http';

/** `GET /api/rapidoreach/uid`: the uid RapidoReach's wall is opened with (userId-appId-checksum). */
export const rapidoReachUidResponseSchema = z.object({ uid: z.string() });
export type RapidoReachUidResponse = z.infer<typeof rapidoReachUidResponseSchema>;

/** The uid a sandbox wall was opened with (the `uid` of `/api/offerwalls`), on each of its requests. */
export const sandboxWallUidSchema = text().min(1).max(300);
export const SANDBOX_WALL_NOTICES = ['completed', 'reversed', 'refused'] as const;
/** `GET /sandbox/offerwalls/{provider}`: the emulated wall page, with the outcome of the last click. */
export const sandboxWallQuerySchema = z.object({ uid: sandboxWallUidSchema, notice: z.enum(SANDBOX_WALL_NOTICES).optional() });
/** `POST /sandbox/offerwalls/{provider}/complete` (the wall's form): complete a sample offer. */
export const sandboxCompleteFormSchema = z.object({ uid: sandboxWallUidSchema, offerId: text().min(1).max(40) });
/** `POST /sandbox/offerwalls/{provider}/reverse` (the wall's form): reverse a transaction the wall paid. */
export const sandboxReverseFormSchema = z.object({ uid: sandboxWallUidSchema, transactionId: text().min(1).max(128) });

/** Earning points: the credited tasks and the offer walls to earn on (docs/earning.md). */
export const EarningRoutes = {
  tasks: defineRoute({
    method: 'GET',
    path: '/api/tasks',
    tag: 'Earning',
    auth: 'session',
    summary: "The user's credited tasks, newest first (a reversed one has completed: false)",
    response: z.array(taskSchema),
  }),
  taskHistory: defineRoute({
    method: 'GET',
    path: '/api/tasks/history',
    tag: 'Earning',
    auth: 'session',
    summary: "A page of the user's credited tasks, newest first, paged by cursor, with the totals of all of them",
    query: taskPageQuerySchema,
    response: taskPageSchema,
  }),
  offerwalls: defineRoute({
    method: 'GET',
    path: '/api/offerwalls',
    tag: 'Earning',
    auth: 'session',
    summary: 'The enabled offer walls and how to embed each for this user',
    response: offerwallsResponseSchema,
  }),
  rapidoReachUid: defineRoute({
    method: 'GET',
    path: '/api/rapidoreach/uid',
    reasons: ['offerwall_disabled'],
    tag: 'Earning',
    auth: 'session',
    summary: "The user's RapidoReach uid",
    response: rapidoReachUidResponseSchema,
    errors: { 404: 'RapidoReach is not enabled (`reason: offerwall_disabled`).' },
  }),
};
