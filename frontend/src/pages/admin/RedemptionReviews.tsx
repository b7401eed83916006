import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountControlAction, AdminRedemptionRiskQueue, RiskReason } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Input, Spinner, useToast } from '../../ui';
import { ADMIN_KEYS, fetchJson } from './adminApi';

type Review = AdminRedemptionRiskQueue['reviews'][number];
type Appeal = AdminRedemptionRiskQueue['appeals'][number];

/** The signals' short names for admins (the user reads longer sentences). */
export const riskReasonsText = (t: (key: string) => string, reasons: readonly RiskReason[]) =>
  reasons.map((r) => t(`redemptionRisk.admin.why.${r}`)).join(' · ');

/** One admin decision with the reason the user reads: the mutation, its toast and what it makes stale. */
function useDecision<B>(url: string) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  return useMutation<unknown, Error, B>({
    mutationFn: (body) => apiJson('POST', url, body),
    onSuccess: () => toast({ title: t('redemptionRisk.admin.decided'), variant: 'success' }),
    onError: (error) => toast({ title: t('redemptionRisk.admin.failed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => {
      for (const key of [ADMIN_KEYS.reviews, ADMIN_KEYS.linked, ADMIN_KEYS.audit]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/**
 * A reason field and one button per choice: every decision over a person's redemptions carries a
 * reason they read (docs/earning.md, "Risk rules").
 */
export function DecisionForm<C extends string>({
  choices,
  busyChoice,
  pending,
  onDecide,
  danger,
}: {
  choices: readonly C[];
  busyChoice: C | undefined;
  pending: boolean;
  onDecide: (choice: C, reason: string) => void;
  danger?: readonly C[];
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The button pressed (or the first one, for Enter in the reason field) is the decision.
    const pressed = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
    const choice = choices.find((c) => c === pressed) ?? choices[0];
    if (reason.trim().length < 3) return setInvalid(t('redemptionRisk.admin.reasonMissing'));
    setInvalid(undefined);
    onDecide(choice, reason.trim());
  };
  return (
    <form onSubmit={submit} noValidate className="stack stack--sm admin__risk-decision">
      <Input
        label={t('redemptionRisk.admin.reason')}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
        error={invalid}
      />
      <div className="admin__actions">
        {choices.map((c) => (
          <Button
            key={c}
            type="submit"
            size="sm"
            variant={danger?.includes(c) ? 'danger' : undefined}
            busy={pending && busyChoice === c}
            disabled={pending}
            value={c}
          >
            {t(`redemptionRisk.admin.action.${c}`)}
          </Button>
        ))}
      </div>
    </form>
  );
}

/**
 * The risk rules' queue (docs/earning.md, "Risk rules"): redemptions held for an admin (approve:
 * it goes ahead; reject: the points come back) and appeals against paused or reviewed
 * redemptions (lift, keep a review, or pause), each with the reason the person reads, each in the
 * audit trail. The server decides a review once: the second of two admins is told so.
 */
export function RedemptionReviews() {
  const { t, i18n } = useTranslation();
  const queue = useQuery({
    queryKey: ADMIN_KEYS.reviews,
    queryFn: () => fetchJson<AdminRedemptionRiskQueue>('/api/admin/redemption-reviews'),
  });
  const reviews = queue.data?.reviews ?? [];
  const appeals = queue.data?.appeals ?? [];
  return (
    <Card
      title={t('redemptionRisk.admin.title')}
      titleId="admin-reviews-title"
      action={<span className="badge">{formatNumber(reviews.length + appeals.length, i18n.language)}</span>}
      data-testid="redemption-reviews"
    >
      <p className="muted small">{t('redemptionRisk.admin.text')}</p>
      {queue.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {queue.isPending && <Spinner label={t('common.loading')} />}
      {queue.isSuccess && reviews.length + appeals.length === 0 && <p className="admin__empty">{t('redemptionRisk.admin.empty')}</p>}
      <ul className="admin__items">
        {reviews.map((r) => (
          <li key={r.redemptionId}>
            <ReviewItem review={r} />
          </li>
        ))}
        {appeals.map((a) => (
          <li key={a.id}>
            <AppealItem appeal={a} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

const REVIEW_CHOICES = ['approve', 'reject'] as const;

function ReviewItem({ review }: { review: Review }) {
  const { t, i18n } = useTranslation();
  const decide = useDecision<{ decision: 'approve' | 'reject'; reason: string }>(
    `/api/admin/redemption-reviews/${review.redemptionId}/decision`,
  );
  const titleId = `review-${review.redemptionId}`;
  return (
    <article className="admin__item" aria-labelledby={titleId} data-testid="redemption-review">
      <header className="admin__item-header">
        <h3 id={titleId} className="admin__item-title">
          {t('redemptionRisk.admin.reviewTitle', {
            gb: formatNumber(review.amountGB, i18n.language),
            points: formatNumber(review.points, i18n.language),
          })}
        </h3>
        <span className="badge badge--warning">{t('redemptionRisk.admin.state.review')}</span>
      </header>
      <ItemFacts item={review} />
      <DecisionForm
        choices={REVIEW_CHOICES}
        danger={['reject']}
        pending={decide.isPending}
        busyChoice={decide.variables?.decision}
        onDecide={(decision, reason) => decide.mutate({ decision, reason })}
      />
    </article>
  );
}

/** Who, why (the signals) and when, for a review or an appeal. */
function ItemFacts({ item }: { item: Review | Appeal }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="admin__facts">
      <div>
        <dt>{t('admin.queue.user')}</dt>
        <dd>{item.user ? `${item.user.name} (${item.user.email})` : t('admin.queue.deletedUser')}</dd>
      </div>
      <div>
        <dt>{t('redemptionRisk.admin.signals')}</dt>
        <dd>{riskReasonsText(t, item.reasons)}</dd>
      </div>
      <div>
        <dt>{t('redemptionRisk.admin.askedAt')}</dt>
        <dd>{formatDate(item.createdAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</dd>
      </div>
    </dl>
  );
}

const APPEAL_CHOICES: readonly AccountControlAction[] = ['lift', 'require_review', 'pause'];

function AppealItem({ appeal }: { appeal: Appeal }) {
  const { t } = useTranslation();
  const decide = useDecision<{ action: AccountControlAction; reason: string }>(`/api/admin/accounts/${appeal.userId}/redemption-control`);
  const titleId = `appeal-${appeal.id}`;
  return (
    <article className="admin__item" aria-labelledby={titleId} data-testid="redemption-appeal">
      <header className="admin__item-header">
        <h3 id={titleId} className="admin__item-title">
          {t('redemptionRisk.admin.appealTitle', { name: appeal.user?.name ?? t('admin.queue.deletedUser') })}
        </h3>
        <span className={appeal.state === 'paused' ? 'badge badge--danger' : 'badge badge--warning'}>
          {t(`redemptionRisk.admin.state.${appeal.state}`)}
        </span>
      </header>
      <blockquote className="admin__appeal-message">{appeal.message}</blockquote>
      <ItemFacts item={appeal} />
      <DecisionForm
        choices={APPEAL_CHOICES}
        danger={['pause']}
        pending={decide.isPending}
        busyChoice={decide.variables?.action}
        onDecide={(action, reason) => decide.mutate({ action, reason })}
      />
    </article>
  );
}
