import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RedemptionAppeal, RedemptionStanding } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, useToast } from '../../ui';
import './redeem.css';

export const STANDING_QUERY_KEY = ['/api/redemption-standing'] as const;
const APPEAL_MIN = 10;
/** How long the answer to an appeal that reopened redemptions stays on the dashboard. */
const ANSWER_SHOWN_MS = 30 * 24 * 3600 * 1000;
const recent = (iso: string | null) => iso !== null && Date.now() - Date.parse(iso) < ANSWER_SHOWN_MS;

/**
 * The risk rules' word to the user (docs/earning.md, "Risk rules"): redemptions paused, or each one
 * checked by the team, with the reasons and the appeal that takes the question to an admin; then
 * the appeal's state and the admin's answer. Never a silent ban. While redemptions are open it
 * shows only the answer to an appeal that reopened them, for a month.
 */
export function RedemptionStandingCard() {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const messageId = useId();
  const [message, setMessage] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const standing = useQuery<RedemptionStanding>({ queryKey: STANDING_QUERY_KEY });
  const appeal = useMutation<RedemptionAppeal, Error, string>({
    mutationFn: (text) => apiJson<RedemptionAppeal>('POST', '/api/redemption-standing/appeal', { message: text }),
    onSuccess: () => {
      setMessage('');
      toast({ title: t('redemptionRisk.appealSent'), variant: 'success' });
    },
    onError: (error) => toast({ title: t('redemptionRisk.appealFailed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: STANDING_QUERY_KEY }),
  });
  const data = standing.data;
  if (!data) return null;
  if (data.state === 'open') return data.appeal?.status === 'answered' && recent(data.appeal.decidedAt) ? <AppealAnswer appeal={data.appeal} /> : null;

  const date = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium' });
  const waiting = data.appeal?.status === 'open';
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim().length < APPEAL_MIN) return setInvalid(t('redemptionRisk.appealTooShort', { min: APPEAL_MIN }));
    setInvalid(null);
    appeal.mutate(message.trim());
  };

  return (
    <Card
      title={t(data.state === 'paused' ? 'redemptionRisk.pausedTitle' : 'redemptionRisk.reviewTitle')}
      titleId="standing-title"
      className="standing-card"
      data-testid="redemption-standing"
      data-state={data.state}
    >
      <div className="stack">
        <p>{t(data.state === 'paused' ? 'redemptionRisk.pausedText' : 'redemptionRisk.reviewText')}</p>
        <div>
          <p className="small muted">{t('redemptionRisk.why')}</p>
          <ul className="standing-card__reasons">
            {data.reasons.map((r) => (
              <li key={r}>{t(`redemptionRisk.reason.${r}`)}</li>
            ))}
          </ul>
        </div>
        {data.appeal?.status === 'answered' && data.appeal.answer && (
          <p role="note" data-testid="appeal-answer">
            {t('redemptionRisk.appealAnswered', { date: date(data.appeal.decidedAt ?? data.appeal.createdAt), answer: data.appeal.answer })}
          </p>
        )}
        {waiting ? (
          <p role="status" data-testid="appeal-waiting">
            {t('redemptionRisk.appealWaiting', { date: date(data.appeal!.createdAt) })}
          </p>
        ) : (
          <form onSubmit={send} noValidate className="stack stack--sm" aria-labelledby="appeal-title">
            <h3 id="appeal-title" className="standing-card__appeal-title">
              {t('redemptionRisk.appealTitle')}
            </h3>
            <p className="small">{t('redemptionRisk.appealText')}</p>
            <div className={['field', invalid && 'field--invalid'].filter(Boolean).join(' ')}>
              <label className="field__label" htmlFor={messageId}>
                {t('redemptionRisk.appealLabel')}
              </label>
              <textarea
                id={messageId}
                className="field__control"
                rows={3}
                maxLength={1000}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                aria-invalid={invalid ? true : undefined}
                aria-describedby={invalid ? `${messageId}-error` : undefined}
              />
              {invalid && (
                <p id={`${messageId}-error`} className="field__error">
                  {invalid}
                </p>
              )}
            </div>
            <Button type="submit" block busy={appeal.isPending} disabled={appeal.isPending}>
              {t('redemptionRisk.appealSend')}
            </Button>
          </form>
        )}
      </div>
    </Card>
  );
}

/** Redemptions are open again: the admin's answer to the appeal. */
function AppealAnswer({ appeal }: { appeal: RedemptionAppeal }) {
  const { t, i18n } = useTranslation();
  return (
    <Card title={t('redemptionRisk.openAgainTitle')} titleId="standing-title" className="standing-card" data-testid="redemption-standing" data-state="open">
      <p data-testid="appeal-answer">
        {t('redemptionRisk.appealAnswered', { date: formatDate(appeal.decidedAt ?? appeal.createdAt, i18n.language, { dateStyle: 'medium' }), answer: appeal.answer })}
      </p>
    </Card>
  );
}
