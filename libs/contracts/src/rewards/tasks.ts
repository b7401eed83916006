import { z } from 'zod';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';

/** product-decisions.md: surveys and offers, app installs, video and ad views, anything else. */
export const TASK_TYPES = ['offer_completion', 'app_install', 'ad_view', 'other'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/**
 * A task credited by an offer-wall postback, as `GET /api/tasks` lists it. `completed` is false once
 * the provider reversed it (its points were deducted; `reversedAt` says when).
 */
export const taskSchema = z.object({
  id: z.string().uuid(),
  userId: z.string().uuid(),
  taskType: z.enum(TASK_TYPES),
  pointsEarned: z.number().int(),
  completedAt: z.string(),
  completed: z.boolean(),
  provider: z.enum(OFFERWALL_IDS),
  reversedAt: z.string().nullable(),
  /** The offer's name, where the wall sent one (the history's title for the mission). */
  offerName: z.string().nullable().optional(),
});
export type Task = z.infer<typeof taskSchema>;
