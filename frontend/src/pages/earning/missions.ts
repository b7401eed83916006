import type { OfferwallId, TaskType } from '@esim/contracts';

/**
 * The three 'Coming Soon' missions of /task (spec section 2, section 9). They are placeholders:
 * starting one runs the security check and credits nothing (product-decisions.md, "Earning").
 * Their rewards are display values, not catalogue prices.
 */
export const COMING_SOON_MISSIONS = [
  { id: 'install-game', key: 'installGame', rewardMb: 300, type: 'appInstall', difficulty: 'easy' },
  { id: 'watch-video', key: 'watchVideo', rewardMb: 100, type: 'video', difficulty: 'easy' },
  { id: 'sign-up', key: 'signUp', rewardMb: 500, type: 'signup', difficulty: 'medium' },
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

/** i18n keys of the task types (product-decisions.md: the four taskType values). */
export const TASK_TYPE_LABEL_KEYS: Readonly<Record<TaskType, string>> = {
  ad_view: 'earning.history.type.adView',
  offer_completion: 'earning.history.type.offerCompletion',
  app_install: 'earning.history.type.appInstall',
  other: 'earning.history.type.other',
};
