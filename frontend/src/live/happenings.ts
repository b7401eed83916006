import type { QueryClient } from '@tanstack/react-query';
import type { LiveHappening, UserView } from '@esim/contracts';
import type { TFunction } from 'i18next';
import { formatNumber } from '../lib/format';
import { OFFERWALL_NAMES } from '../pages/earning/missions';

/** The notice for what happened, in the page's language: '+250 MB from CPX Research', 'Your eSIM is ready'. */
export function happeningText(happened: LiveHappening, t: TFunction, language: string): string {
  switch (happened.kind) {
    case 'points-credited':
      return t('live.credited', { mb: formatNumber(happened.points, language), provider: OFFERWALL_NAMES[happened.provider] });
    case 'points-reversed':
      return t('live.reversed', { mb: formatNumber(happened.points, language), provider: OFFERWALL_NAMES[happened.provider] });
    case 'esim-ready':
      return t('live.esimReady');
    case 'esim-topped-up':
      return t('live.toppedUp', { gb: formatNumber(happened.amountGB, language) });
    case 'payment-received':
      return t('live.paymentReceived');
    case 'gift-granted':
      return t('live.giftGranted', { gb: formatNumber(happened.amountGB, language) });
    case 'auto-topup-refused':
      return t(happened.reason === 'no_points' ? 'autoTopup.refusedNoPoints' : 'autoTopup.refusedCap', { last4: happened.last4 });
  }
}

const byPath =
  (...paths: string[]) =>
  ({ queryKey }: { queryKey: readonly unknown[] }) =>
    typeof queryKey[0] === 'string' && paths.some((p) => (queryKey[0] as string).startsWith(p));

const giftsOf = (u: UserView) => `${u.dataGiftedGB}|${u.iccid}|${u.planTierLastChosen}|${u.lastGiftedAt}`;

/**
 * The reads a change makes stale, read again now if a page shows them (TanStack Query refetches
 * only mounted queries; the others are fetched when next shown): /history and the points statement
 * after points moved, My eSIMs and the gift list after an eSIM or a gift. Keyed by URL, as every
 * read of this app is (the default query function GETs `queryKey[0]`).
 */
export function refreshAffected(queryClient: QueryClient, previous: UserView | null | undefined, user: UserView, happened: LiveHappening | null): void {
  const kind = happened?.kind;
  if (!previous || previous.points !== user.points || kind === 'points-credited' || kind === 'points-reversed') {
    void queryClient.invalidateQueries({ predicate: byPath('/api/tasks', '/api/points-statement') });
  }
  if (!previous || giftsOf(previous) !== giftsOf(user) || kind === 'esim-ready' || kind === 'esim-topped-up') {
    void queryClient.invalidateQueries({ predicate: byPath('/api/esim-lines', '/api/esim-purchases', '/api/gifts') });
  }
  if (kind === 'payment-received') void queryClient.invalidateQueries({ predicate: byPath('/api/esim-purchases') });
  if (kind === 'gift-granted') void queryClient.invalidateQueries({ predicate: byPath('/api/gifts') });
  // The line's auto top-up switch shows the month's count (`/api/esim-lines/{iccid}/auto-topup`).
  if (kind === 'auto-topup-refused') void queryClient.invalidateQueries({ predicate: byPath('/api/esim-lines') });
}
