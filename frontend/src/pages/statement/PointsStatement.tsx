import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isOfferwallId, type PointsStatement as Statement, type StatementEntry } from '@esim/contracts';
import { apiRequest } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { Button, Card, Spinner } from '../../ui';
import { LoadError } from '../earning/LoadError';
import { OFFERWALL_NAMES } from '../earning/missions';
import { signedPoints, STATE_BADGE, statementEntries, statementReference, STATEMENT_QUERY_KEY, statementUrl } from './statement';
import './statement.css';

async function fetchPage(before: string | null, signal: AbortSignal): Promise<Statement> {
  return (await apiRequest('GET', statementUrl(before), undefined, signal)).json() as Promise<Statement>;
}

const providerName = (provider: string) =>
  isOfferwallId(provider) ? OFFERWALL_NAMES[provider] : provider === 'keepgo' ? 'KeepGo' : provider;

/**
 * The points statement (docs/redemption-screens.md: /history is the user's points statement): every
 * ledger movement, newest first, with its kind, signed amount, reference and state; older
 * movements one page at a time ("Load more").
 */
export function PointsStatement() {
  const { t } = useTranslation();
  const statement = useInfiniteQuery<Statement, Error, InfiniteData<Statement, string | null>, readonly string[], string | null>({
    queryKey: STATEMENT_QUERY_KEY,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const entries = statementEntries(statement.data?.pages);

  let body;
  if (statement.isPending) {
    body = (
      <Card className="walls-loading">
        <Spinner label={t('statement.loading')} />
      </Card>
    );
  } else if (statement.isError) {
    body = (
      <LoadError
        title={t('statement.error')}
        error={statement.error}
        onRetry={() => void statement.refetch()}
        retrying={statement.isFetching}
      />
    );
  } else if (entries.length === 0) {
    body = <p className="muted statement-empty">{t('statement.empty')}</p>;
  } else {
    body = (
      <>
        <ul className="history-list statement-list" data-testid="statement">
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </ul>
        <div className="statement-more">
          {statement.hasNextPage && (
            <Button
              variant="secondary"
              block
              busy={statement.isFetchingNextPage}
              busyText={t('common.loading')}
              onClick={() => void statement.fetchNextPage()}
            >
              {t('statement.loadMore')}
            </Button>
          )}
          {statement.isFetchNextPageError && (
            <p className="small statement-more__error" role="alert">
              {t('statement.moreError')}
            </p>
          )}
        </div>
      </>
    );
  }

  return (
    <section className="stack" aria-labelledby="statement-title">
      <div className="stack stack--sm">
        <h2 id="statement-title" className="section-title">
          {t('statement.title')}
        </h2>
        <p className="muted small">{t('statement.subtitle')}</p>
      </div>
      {body}
    </section>
  );
}

function Entry({ entry }: { entry: StatementEntry }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const reference = statementReference(entry);
  // In plain words: who credited or took back, not only what kind of movement it was.
  const kindText =
    entry.kind === 'earned' && entry.provider
      ? t('historyView.creditFrom', { provider: providerName(entry.provider) })
      : entry.kind === 'reversed' && entry.provider
        ? t('historyView.takenBackBy', { provider: providerName(entry.provider) })
        : entry.kind === 'claim_credited'
          ? t('claims.statementKind')
          : entry.kind === 'referral_bonus'
            ? t('referrals.statementKind')
            : entry.kind === 'carried_forward'
              ? t('dataRetention.carriedForward')
              : t(`statement.kind.${entry.kind}`);
  // Points that never reached the spendable balance (held, or cancelled while held) show what they were, muted.
  const shownPoints = entry.kind === 'earned' && entry.points === 0 ? entry.amount : entry.kind === 'reversed' && entry.points === 0 ? -entry.amount : entry.points;
  const amountText =
    entry.kind === 'spent' || (entry.points === 0 && shownPoints === 0 && entry.amount > 0)
      ? t('statement.settled', { points: n(entry.amount) })
      : t('statement.points', { points: signedPoints(shownPoints, n) });
  const tone =
    entry.points > 0
      ? 'statement-entry__amount--plus'
      : entry.points < 0
        ? 'statement-entry__amount--minus'
        : 'statement-entry__amount--zero';
  return (
    <li className="statement-entry" data-testid="statement-entry" data-kind={entry.kind}>
      <div className="statement-entry__body">
        <p className="statement-entry__kind">{kindText}</p>
        <p className="statement-entry__meta">
          <time dateTime={entry.occurredAt}>
            {formatDate(entry.occurredAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
        </p>
        {/* Technical references (transaction and redemption ids) for support, out of the way. */}
        {reference && reference.type !== 'provider' && (
          <details className="statement-entry__details">
            <summary>{t('historyView.details')}</summary>
            <p className="statement-entry__ref">
              {reference.type === 'redemption' && t('statement.redemption', { id: reference.id })}
              {reference.type === 'transaction' &&
                (reference.provider
                  ? t('statement.transaction', { provider: providerName(reference.provider), id: reference.id })
                  : t('statement.transactionOnly', { id: reference.id }))}
            </p>
          </details>
        )}
        {entry.offerName && <p className="statement-entry__ref">{t('statement.offer', { name: entry.offerName })}</p>}
        {entry.kind === 'earned' && entry.state === 'pending' && entry.availableAt && (
          <p className="statement-entry__note">
            {t('statement.availableOn', { date: formatDate(entry.availableAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) })}
          </p>
        )}
        {entry.kind === 'reversed' && (
          <>
            {entry.reason && (
              <p className="statement-entry__note">
                {t('statement.reason', { provider: entry.provider ? providerName(entry.provider) : '', reason: entry.reason })}
              </p>
            )}
            <p className="statement-entry__note">{entry.cancelledHeld ? t('statement.cancelledHeld') : t('statement.takenBack')}</p>
          </>
        )}
      </div>
      <div className="statement-entry__side">
        <span className={`statement-entry__amount ${tone}`}>{amountText}</span>
        <span className={STATE_BADGE[entry.state]}>{t(`statement.state.${entry.state}`)}</span>
      </div>
    </li>
  );
}
