import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CLAIM_MAX_POINTS, WALL_CLAIM_GUIDE, type AdminCreditClaim, type AdminCreditClaimsResponse, type CreditClaimDecision } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Input, Spinner, useToast } from '../../ui';
import { ADMIN_KEYS, fetchJson } from './adminApi';

type Claim = AdminCreditClaimsResponse['claims'][number];

/**
 * Missing-credit claims in the operator queue (docs/earning.md, "Missing credit"): each open claim
 * with what the wall's support needs (the user's id there, the offer, the day), credited through
 * the ledger or rejected with a reason the user reads. The server decides a claim once: the second
 * of two admins is told it was already decided.
 */
export function CreditClaims() {
  const { t, i18n } = useTranslation();
  const claims = useQuery({ queryKey: ADMIN_KEYS.claims, queryFn: () => fetchJson<AdminCreditClaimsResponse>('/api/admin/credit-claims') });
  const list = claims.data?.claims ?? [];
  return (
    <Card title={t('claims.admin.title')} titleId="admin-claims-title" action={<span className="badge">{formatNumber(list.length, i18n.language)}</span>}>
      <p className="muted small">{t('claims.admin.text')}</p>
      {claims.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {claims.isPending && <Spinner label={t('common.loading')} />}
      {claims.isSuccess && list.length === 0 && <p className="admin__empty">{t('claims.admin.empty')}</p>}
      <ul className="admin__items">
        {list.map((claim) => (
          <li key={claim.id}>
            <ClaimItem claim={claim} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ClaimItem({ claim }: { claim: Claim }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [points, setPoints] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<{ points?: string; reason?: string }>({});
  const titleId = `claim-${claim.id}`;

  const decide = useMutation<AdminCreditClaim, Error, CreditClaimDecision>({
    mutationFn: (decision) => apiJson<AdminCreditClaim>('POST', `/api/admin/credit-claims/${claim.id}/decision`, decision),
    onSuccess: (c) => toast({ title: c.status === 'credited' ? t('claims.admin.credited') : t('claims.admin.rejected'), variant: 'success' }),
    onError: (error) => toast({ title: t('claims.admin.failed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => {
      for (const key of [ADMIN_KEYS.claims, ADMIN_KEYS.stats, ADMIN_KEYS.users, ADMIN_KEYS.audit]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const credit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(points);
    if (!Number.isInteger(n) || n < 1 || n > CLAIM_MAX_POINTS) return setInvalid({ points: t('claims.admin.pointsInvalid', { max: formatNumber(CLAIM_MAX_POINTS, i18n.language) }) });
    setInvalid({});
    decide.mutate({ decision: 'credit', points: n });
  };
  const reject = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < 3) return setInvalid({ reason: t('claims.admin.reasonMissing') });
    setInvalid({});
    decide.mutate({ decision: 'reject', reason: reason.trim() });
  };
  const busy = (d: CreditClaimDecision['decision']) => decide.isPending && decide.variables?.decision === d;

  return (
    <article className="admin__item" aria-labelledby={titleId} data-testid="claim-review" data-claim-id={claim.id}>
      <header className="admin__item-header">
        <h3 id={titleId} className="admin__item-title">
          {claim.offerName}
        </h3>
        <span className="badge badge--warning">{WALL_CLAIM_GUIDE[claim.wall].name}</span>
      </header>
      <dl className="admin__facts">
        <div>
          <dt>{t('admin.queue.user')}</dt>
          <dd>{claim.user ? `${claim.user.name} (${claim.user.email})` : t('admin.queue.deletedUser')}</dd>
        </div>
        <div>
          <dt>{t('claims.admin.wallUserId')}</dt>
          <dd dir="ltr">
            <code>{claim.wallUserId}</code>
          </dd>
        </div>
        <div>
          <dt>{t('claims.admin.completedOn')}</dt>
          <dd>{formatDate(`${claim.completedOn}T12:00:00`, i18n.language, { dateStyle: 'medium' })}</dd>
        </div>
        <div>
          <dt>{t('claims.admin.filedAt')}</dt>
          <dd>{formatDate(claim.createdAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</dd>
        </div>
      </dl>
      <div className="admin__actions admin__claim-decisions">
        <form onSubmit={credit} noValidate className="stack stack--sm">
          <Input
            label={t('claims.admin.points')}
            type="number"
            inputMode="numeric"
            min={1}
            max={CLAIM_MAX_POINTS}
            value={points}
            onChange={(e) => setPoints(e.target.value)}
            error={invalid.points}
          />
          <Button type="submit" size="sm" busy={busy('credit')} disabled={decide.isPending}>
            {t('claims.admin.credit')}
          </Button>
        </form>
        <form onSubmit={reject} noValidate className="stack stack--sm">
          <Input label={t('claims.admin.reason')} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} error={invalid.reason} />
          <Button type="submit" variant="danger" size="sm" busy={busy('reject')} disabled={decide.isPending}>
            {t('claims.admin.reject')}
          </Button>
        </form>
      </div>
    </article>
  );
}
