import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReferralsResponse } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { Button, Card, Input, useToast } from '../../ui';
import './referrals.css';

export const REFERRALS_QUERY_KEY = ['/api/referrals'] as const;

const STATUS_BADGE = { pending: 'badge badge--warning', paid: 'badge badge--success', void: 'badge badge--danger' } as const;

/**
 * The dashboard's invite card (docs/earning.md, "Referrals"): the user's code, the platform's
 * share sheet (navigator.share) or, without one, the link copied; and the invited friends with
 * what each brought, a void one with the reason.
 */
export function InviteCard() {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const referrals = useQuery<ReferralsResponse>({ queryKey: REFERRALS_QUERY_KEY });
  const [showLink, setShowLink] = useState(false);
  const n = (value: number) => formatNumber(value, i18n.language);
  const data = referrals.data;

  const share = async () => {
    if (!data) return;
    const text = t('referrals.shareText', { bonus: n(data.bonusPoints) });
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('referrals.shareTitle'), text, url: data.link });
        return;
      } catch (error) {
        // Closing the sheet is a choice, not a failure; anything else falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(data.link);
      toast({ title: t('referrals.copied'), variant: 'success' });
    } catch {
      setShowLink(true);
    }
  };

  return (
    <Card title={t('referrals.title')} titleId="invite-title" className="invite-card" data-testid="invite-card">
      {referrals.isError && <p role="alert">{t('referrals.loadError')}</p>}
      {data && (
        <div className="stack">
          <p>{t('referrals.text', { qualifying: n(data.qualifyingPoints), bonus: n(data.bonusPoints) })}</p>
          <p className="invite-card__code">
            <span>{t('referrals.codeLabel')}</span>{' '}
            <strong dir="ltr" data-testid="invite-code">
              {data.code}
            </strong>
          </p>
          <Button block onClick={() => void share()}>
            {t('referrals.share')}
          </Button>
          {showLink && <Input label={t('referrals.linkLabel')} hint={t('referrals.copyFailed')} value={data.link} readOnly dir="ltr" onFocus={(e) => e.target.select()} />}
          <section aria-labelledby="invited-title" className="stack stack--sm">
            <h3 id="invited-title" className="invite-card__subtitle">
              {t('referrals.invitedTitle')}
            </h3>
            {data.invited.length === 0 ? (
              <p className="muted small">{t('referrals.none')}</p>
            ) : (
              <ul className="invite-list">
                {data.invited.map((friend, i) => (
                  <li key={i} className="invite-list__item" data-testid="invited-friend" data-status={friend.status}>
                    <div>
                      <p className="invite-list__name">{friend.name ?? t('referrals.privateName')}</p>
                      {friend.status === 'void' && friend.voidReason && <p className="small">{t(`referrals.void.${friend.voidReason}`)}</p>}
                    </div>
                    <span className={STATUS_BADGE[friend.status]}>
                      {friend.status === 'paid'
                        ? t('referrals.status.paid', { mb: n(friend.pointsForYou) })
                        : friend.status === 'pending'
                          ? t('referrals.status.pending', { qualifying: n(data.qualifyingPoints) })
                          : t('referrals.status.void')}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Card>
  );
}
