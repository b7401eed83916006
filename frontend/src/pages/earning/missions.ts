import type { OfferwallId, TaskKind } from '@esim/contracts';

/**
 * The three 'Coming Soon' missions of /task (spec section 2, section 9). They are placeholders:
 * starting one runs the security check and credits nothing (product-decisions.md, "Earning").
 * Their rewards are display values, not catalogue prices.
 */
export const COMING_SOON_MISSIONS = [
  { id: 'install-game', key: 'installGame', rewardMb: 300, kind: 'app_install', difficulty: 'easy' },
  { id: 'watch-video', key: 'watchVideo', rewardMb: 100, kind: 'video_ad', difficulty: 'easy' },
  { id: 'sign-up', key: 'signUp', rewardMb: 500, kind: 'signup', difficulty: 'medium' },
] as const;

export type ComingSoonMission = (typeof COMING_SOON_MISSIONS)[number];
export type MissionId = ComingSoonMission['id'];

export function missionById(id: string | null | undefined): ComingSoonMission | undefined {
  return COMING_SOON_MISSIONS.find((m) => m.id === id);
}

/** The four sample offers of /adwall's placeholder wall (spec section 2), in points. */
export const ADWALL_SAMPLE_OFFERS = [
  { key: 'installGame', points: 120, icon: 'game' },
  { key: 'shop', points: 200, icon: 'shop' },
  { key: 'video', points: 25, icon: 'video' },
  { key: 'survey', points: 75, icon: 'survey' },
] as const;

/** Offer-wall brand names, for history rows (the task names its provider by id). */
export const OFFERWALL_NAMES: Readonly<Record<OfferwallId, string>> = {
  rapidoreach: 'RapidoReach',
  cpx: 'CPX Research',
  bitlabs: 'BitLabs',
  lootably: 'Lootably',
  torox: 'Torox',
};

/**
 * The one label of each kind of task (TASK_KINDS), whatever wall paid it: /history's missions and
 * /task's missions say the same word for the same kind.
 */
export const TASK_KIND_LABEL_KEYS: Readonly<Record<TaskKind, string>> = {
  survey: 'taskKinds.survey',
  app_install: 'taskKinds.app_install',
  game: 'taskKinds.game',
  video_ad: 'taskKinds.video_ad',
  signup: 'taskKinds.signup',
  purchase: 'taskKinds.purchase',
  offer: 'taskKinds.offer',
  other: 'taskKinds.other',
};
