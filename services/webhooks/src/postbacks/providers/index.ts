import type { OfferwallId } from '@esim/contracts';
import { bitLabs } from './bitlabs';
import { cpxResearch } from './cpx-research';
import { lootably } from './lootably';
import { rapidoReach } from './rapidoreach';
import { torox } from './torox';

/** Any of the five walls; called with full credentials, each reads only the ones it declares. */
export type AnyOfferwallProvider = typeof rapidoReach | typeof cpxResearch | typeof bitLabs | typeof lootably | typeof torox;

export const OFFERWALL_PROVIDERS: Readonly<Record<OfferwallId, AnyOfferwallProvider>> = {
  rapidoreach: rapidoReach,
  cpx: cpxResearch,
  bitlabs: bitLabs,
  lootably,
  torox,
};
