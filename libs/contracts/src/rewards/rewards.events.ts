import { z } from 'zod';
import { defineEvent } from '../events/event-definition';
import { OFFERWALL_IDS } from './offerwalls';
import { TASK_TYPES } from './tasks';

/** An offer-wall task was credited to the user (one per provider transaction). */
export const TaskCredited = defineEvent(
  'rewards',
  'task-credited',
  1,
  z.object({
    taskId: z.string().uuid(),
    userId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    transactionId: z.string(),
    taskType: z.enum(TASK_TYPES),
    points: z.number().int().positive(),
    completedAt: z.string().datetime(),
  }),
);

/** The provider took a credited task back; its points were deducted once. */
export const TaskReversed = defineEvent(
  'rewards',
  'task-reversed',
  1,
  z.object({
    taskId: z.string().uuid(),
    userId: z.string().uuid(),
    provider: z.enum(OFFERWALL_IDS),
    transactionId: z.string(),
    points: z.number().int().positive(),
    reversedAt: z.string().datetime(),
  }),
);
