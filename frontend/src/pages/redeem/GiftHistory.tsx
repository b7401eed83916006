import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GiftsResponse } from '@esim/contracts';
import { formatDate, formatNumber } from '../../lib/format';
import { ButtonLink, GiftIcon } from '../../ui';
import { GIFTS_QUERY_KEY } from './gifts';

/**
 * The user's admin gifts on /history, newest first: pending (with its claim link), claimed (the
 * eSIM on its way) or delivered. Nothing when the user never had one.
 */
export function GiftHistory() {
  const { t, i18n } = useTranslation();
  const gifts = useQuery<GiftsResponse>({ queryKey: GIFTS_QUERY_KEY });
  const list = gifts.data?.gifts ?? [];
  if (list.length === 0) return null;
  const n = (value: number) => formatNumber(value, i18n.language);
  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium' });
  return (
    <section className="stack" aria-labelledby="gift-history-title">
      <h2 id="gift-history-title" className="section-title">
        {t('gifts.history.title')}
      </h2>
      <ul className="history-list" data-testid="gift-history">
        {list.map((gift) => (
          <li key={gift.giftId} className="history-item" data-testid="gift-history-item" data-state={gift.state}>
            <span className="icon-badge icon-badge--tile" aria-hidden="true">
              <GiftIcon size={20} />
            </span>
            <div className="history-item__body">
              <p className="history-item__type">{t('gifts.history.item', { gb: n(gift.amountGB) })}</p>
              <p className="history-item__meta">{t('gifts.history.grantedOn', { date: date(gift.grantedAt) })}</p>
              <p className="history-item__meta">
                {gift.state === 'pending'
                  ? t('gifts.history.pending')
                  : gift.state === 'claimed'
                    ? t('gifts.history.claimed')
                    : t('gifts.history.delivered', { gb: n(gift.deliveredGB ?? gift.amountGB), date: date(gift.deliveredAt ?? gift.grantedAt) })}
              </p>
            </div>
            {gift.state === 'pending' && (
              <ButtonLink to={`/iccid?gift=${encodeURIComponent(gift.giftId)}`} variant="gold" size="sm">
                {t('gifts.card.claim', { gb: n(gift.amountGB) })}
              </ButtonLink>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
