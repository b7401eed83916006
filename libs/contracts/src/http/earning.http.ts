import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';
import { taskSchema } from '../rewards/tasks';
import { offerwallsResponseSchema } from '../webhooks/offerwalls';

/** `GET /api/rapidoreach/uid`: the uid RapidoReach's wall is opened with (userId-appId-checksum). */
export const rapidoReachUidResponseSchema = z.object({ uid: z.string() });
export type RapidoReachUidResponse = z.infer<typeof rapidoReachUidResponseSchema>;

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
    tag: 'Earning',
    auth: 'session',
    summary: "The user's RapidoReach uid",
    response: rapidoReachUidResponseSchema,
    errors: { 404: 'RapidoReach is not enabled (`reason: offerwall_disabled`).' },
  }),
};
