import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminStats } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { GiftIcon, SparkIcon, UserIcon } from '../../ui';
import { ADMIN_KEYS } from './adminApi';

/** The three stat cards (spec section 6): users, data gifted (GB, with admin gifts granted, claimed and pending), points held. */
export function StatsCards() {
  const { t, i18n } = useTranslation();
  const stats = useQuery<AdminStats>({ queryKey: ADMIN_KEYS.stats });
  const value = (n: number | undefined) => (n === undefined ? '…' : formatNumber(n, i18n.language));
  const cards: { key: string; label: string; value: string; icon: ReactNode; note?: string }[] = [
    { key: 'totalUsers', label: t('admin.stats.totalUsers'), value: value(stats.data?.totalUsers), icon: <UserIcon size={24} /> },
    {
      key: 'totalDataGifted',
      label: t('admin.stats.totalDataGifted'),
      value: stats.data ? t('common.gbValue', { value: formatNumber(stats.data.totalDataGifted, i18n.language) }) : '…',
      icon: <GiftIcon size={24} />,
      // Delivered data moves when a claim lands; an admin's gift shows here the moment it is granted.
      note: stats.data
        ? t('gifts.admin.tally', {
            granted: formatNumber(stats.data.giftsGrantedGB, i18n.language),
            claimed: formatNumber(stats.data.giftsClaimedGB, i18n.language),
            pending: formatNumber(stats.data.giftsPendingGB, i18n.language),
          })
        : undefined,
    },
    { key: 'totalPoints', label: t('admin.stats.totalPoints'), value: value(stats.data?.totalPoints), icon: <SparkIcon size={24} /> },
  ];
  return (
    <section aria-labelledby="admin-stats-title" className="admin__stats">
      <h2 id="admin-stats-title" className="visually-hidden">
        {t('admin.stats.title')}
      </h2>
      {stats.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      <ul className="admin__stat-list">
        {cards.map((c) => (
          <li key={c.key} className="card stat-card" data-testid={`stat-${c.key}`}>
            <span className="stat-card__icon" aria-hidden="true">
              {c.icon}
            </span>
            <div className="stat-card__body">
              <span className="stat-card__label">{c.label}</span>
              <span className="stat-card__value">{c.value}</span>
              {c.note && (
                <span className="small muted" data-testid={`${c.key}-note`}>
                  {c.note}
                </span>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
