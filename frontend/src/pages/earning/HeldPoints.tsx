import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserView } from '@esim/contracts';
import { formatDate, formatNumber } from '../../lib/format';
import { ButtonLink, TargetIcon } from '../../ui';

/**
 * Held points (docs/earning.md, "Held credits"): how many are pending and when the next ones
 * become spendable, under the balance they are not part of. Nothing when nothing is held.
 */
export function HeldPoints({ user, className }: { user: UserView; className?: string }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  if (user.pendingPoints <= 0) return null;
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section className={['held-points', className].filter(Boolean).join(' ')} aria-labelledby={titleId} data-testid="held-points">
      <h3 id={titleId} className="held-points__amount">
        {t('held.amount', { mb: n(user.pendingPoints) })}
      </h3>
      <p className="held-points__explain">{t('held.explain')}</p>
      {user.pendingReleases.length > 0 && (
        <>
          <p className="held-points__next-title">{t('held.nextTitle')}</p>
          <ul className="held-points__releases">
            {user.pendingReleases.map((release, i) => (
              <li key={`${release.availableAt}-${i}`}>
                {t('held.next', {
                  mb: n(release.points),
                  date: formatDate(release.availableAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * A balance below zero, explained: a wall took back points that were already spent, and new
 * credits pay it back first. Nothing while the balance is zero or more.
 */
export function NegativeBalanceNote({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const titleId = useId();
  if (user.points >= 0) return null;
  return (
    <section className="banner" role="note" aria-labelledby={titleId} data-testid="negative-balance">
      <div className="stack stack--sm">
        <h2 id={titleId} className="banner__title">
          {t('held.negative.title')}
        </h2>
        <p className="banner__text">{t('held.negative.text')}</p>
        <ButtonLink to="/task" variant="secondary" size="sm" icon={<TargetIcon size={18} />}>
          {t('held.negative.cta')}
        </ButtonLink>
      </div>
    </section>
  );
}
