import { z } from 'zod';
import { OFFERWALL_IDS } from '../webhooks/offerwalls';

/** product-decisions.md: surveys and offers, app installs, video and ad views, anything else. */
export const TASK_TYPES = ['offer_completion', 'app_install', 'ad_view', 'other'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/**
 * What the person did, in one product word whatever the wall: each wall names its categories its
 * own way (RapidoReach's offerType, BitLabs' callback type, an offer's name), and the webhooks
 * service reads them into one of these where it parses the postback, so the same kind of offer
 * carries one label in the history whichever wall paid it. `offer` is an offer the wall said
 * nothing more about; `other` is anything that is not an offer (a wall's bonus).
 */
export const TASK_KINDS = ['survey', 'app_install', 'game', 'video_ad', 'signup', 'purchase', 'offer', 'other'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** The spec's taskType of each kind (product-decisions.md: the taskType mapping). */
export const TASK_TYPE_OF_KIND: Readonly<Record<TaskKind, TaskType>> = {
  survey: 'offer_completion',
  app_install: 'app_install',
  game: 'app_install',
  video_ad: 'ad_view',
  signup: 'offer_completion',
  purchase: 'offer_completion',
  offer: 'offer_completion',
  other: 'other',
};

/** The kind a task recorded before kinds existed is read as: its taskType's closest kind. */
export const KIND_OF_TASK_TYPE: Readonly<Record<TaskType, TaskKind>> = {
  offer_completion: 'offer',
  app_install: 'app_install',
  ad_view: 'video_ad',
  other: 'other',
};

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
  /** What the person did, one word for every wall (TASK_KINDS): the label the history shows. */
  kind: z.enum(TASK_KINDS),
});
export type Task = z.infer<typeof taskSchema>;

export const TASK_PAGE_DEFAULT = 20;
export const TASK_PAGE_MAX = 100;

/**
 * `GET /api/tasks/history?cursor=<id>&limit=<1-100>`: a page of the history, newest first. The
 * cursor is the id of the last task of the previous page: the next page starts after that task in
 * (completedAt, id) order, so tasks credited meanwhile neither repeat nor push others across pages.
 */
export const taskPageQuerySchema = z.object({
  cursor: z.string().uuid('cursor must be the nextCursor of a previous page').optional(),
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${TASK_PAGE_MAX}` })
    .int(`limit must be a number from 1 to ${TASK_PAGE_MAX}`)
    .min(1, `limit must be a number from 1 to ${TASK_PAGE_MAX}`)
    .max(TASK_PAGE_MAX, `limit must be a number from 1 to ${TASK_PAGE_MAX}`)
    .optional(),
});
export type TaskPageQuery = z.infer<typeof taskPageQuerySchema>;

/** All the user's missions, whatever page is shown: the history's totals. */
export const taskTotalsSchema = z.object({
  /** Points of the tasks still completed (a reversed task's points were taken back). */
  earnedMb: z.number().int(),
  /** Tasks still completed. */
  missions: z.number().int(),
  /** Every task, reversed ones too: how long the history is. */
  tasks: z.number().int(),
});

export const taskPageSchema = z.object({
  items: z.array(taskSchema),
  /** Pass as `?cursor=` for the next (older) page; null at the end. */
  nextCursor: z.string().uuid().nullable(),
  totals: taskTotalsSchema,
});
export type TaskPage = z.infer<typeof taskPageSchema>;
