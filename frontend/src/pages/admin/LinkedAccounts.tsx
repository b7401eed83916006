import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LINKED_GROUP_DECISIONS, type LinkedAccountsResponse, type LinkedGroupDecision } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Card, Spinner, useToast } from '../../ui';
import { ADMIN_KEYS, fetchJson } from './adminApi';
import { DecisionForm, riskReasonsText } from './RedemptionReviews';

/**
 * Accounts linked by the fraud signals (docs/earning.md, "Fair fraud control"): each group with its
 * reason (a shared device) and each account's other signals and redemption standing. An address
 * alone links nothing, so no group stands on one. The admin decides over a group (docs/earning.md,
 * "Risk rules"): not the same person, pause, require review or lift, with a reason; in the audit trail.
 */
export function LinkedAccounts() {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const linked = useQuery({ queryKey: ADMIN_KEYS.linked, queryFn: () => fetchJson<LinkedAccountsResponse>('/api/admin/linked-accounts') });
  const groups = linked.data?.groups ?? [];
  return (
    <Card title={t('risk.title')} titleId="admin-linked-title" action={<span className="badge">{n(groups.length)}</span>}>
      <p className="muted small">{t('risk.text')}</p>
      {linked.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      {linked.isPending && <Spinner label={t('common.loading')} />}
      {linked.isSuccess && groups.length === 0 && <p className="admin__empty">{t('risk.empty')}</p>}
      <ul className="admin__items">
        {groups.map((group, i) => (
          <li key={group.groupId}>
            <article className="admin__item" aria-labelledby={`linked-${i}`} data-testid="linked-group">
              <header className="admin__item-header">
                <h3 id={`linked-${i}`} className="admin__item-title">
                  {group.reasons.map((r) => t(`risk.reason.${r}`)).join(' · ')}
                </h3>
                <span className="badge badge--warning">{n(group.accounts.length)}</span>
              </header>
              <ul className="admin__linked">
                {group.accounts.map((a) => (
                  <li key={a.userId}>
                    <p className="admin__linked-name">
                      {a.name} <span dir="ltr">({a.email})</span>
                    </p>
                    <p className="small muted">
                      {[
                        a.disposableEmail ? t('risk.disposable') : null,
                        t('risk.networks', { shown: n(a.sharedNetworks) }),
                        t('risk.reversals', { reversals: n(a.reversals), credits: n(a.credits) }),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                    <p className="small" data-testid="linked-standing">
                      {t(`redemptionRisk.admin.state.${a.redemptions}`)}
                      {a.riskReasons.length > 0 && ` (${riskReasonsText(t, a.riskReasons)})`}
                    </p>
                  </li>
                ))}
              </ul>
              <GroupDecision groupId={group.groupId} />
            </article>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** not_same_person first: the decision that clears a link is the one admins should weigh first. */
function GroupDecision({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const decide = useMutation<unknown, Error, LinkedGroupDecision>({
    mutationFn: (body) => apiJson('POST', `/api/admin/linked-accounts/${groupId}/decision`, body),
    onSuccess: () => toast({ title: t('redemptionRisk.admin.decided'), variant: 'success' }),
    onError: (error) => toast({ title: t('redemptionRisk.admin.failed'), description: errorText(error), variant: 'destructive' }),
    onSettled: () => {
      for (const key of [ADMIN_KEYS.linked, ADMIN_KEYS.reviews, ADMIN_KEYS.audit]) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <DecisionForm
      choices={LINKED_GROUP_DECISIONS}
      danger={['pause']}
      pending={decide.isPending}
      busyChoice={decide.variables?.decision}
      onDecide={(decision, reason) => decide.mutate({ decision, reason })}
    />
  );
}
