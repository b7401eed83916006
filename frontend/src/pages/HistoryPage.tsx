import { useMemo, type ReactNode } from 'react';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OfferwallId, TaskKind, TaskPage } from '@esim/contracts';
import { apiRequest } from '../lib/api';
import { useAuth } from '../auth/AuthProvider';
import { formatDate, formatNumber } from '../lib/format';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Button, ButtonLink, Card, ClockIcon, EmptyState, GiftIcon, PageHeader, SparkIcon, Spinner, TargetIcon } from '../ui';
import { dayLabel, groupTasksByDay, taskHistoryUrl, type TaskRecord } from './earning/history';
import { HeldPoints, NegativeBalanceNote } from './earning/HeldPoints';
import { HistoryNav } from './earning/HistoryNav';
import { MissingCreditLink } from './claims/MissingCreditLink';
import { BagIcon, GamepadIcon, ListCheckIcon, PlayIcon, UserPlusIcon } from '../ui/icons';
import { LoadError } from './earning/LoadError';
import { OFFERWALL_NAMES, TASK_KIND_LABEL_KEYS } from './earning/missions';
import { PointsStatement } from './statement/PointsStatement';
import { GiftHistory } from './redeem/GiftHistory';
import { TASK_HISTORY_QUERY_KEY } from './earning/queryKeys';
import './earning/earning.css';

const KIND_ICONS: Record<TaskKind, ReactNode> = {
  survey: <ListCheckIcon size={20} />,
  app_install: <GamepadIcon size={20} />,
  game: <GamepadIcon size={20} />,
  video_ad: <PlayIcon size={20} />,
  signup: <UserPlusIcon size={20} />,
  purchase: <BagIcon size={20} />,
  offer: <SparkIcon size={20} />,
  other: <GiftIcon size={20} />,
};

/** Missions a page of the server's answers holds, at first and per "Show more": a long history stays a short page. */
export const MISSIONS_PAGE = 20;

async function fetchMissions(cursor: string | null, signal: AbortSignal): Promise<TaskPage> {
  return (await apiRequest('GET', taskHistoryUrl(cursor, MISSIONS_PAGE), undefined, signal)).json() as Promise<TaskPage>;
}

/**
 * /history: the totals of the missions, then the missions grouped by day, newest day first (spec
 * section 2), a page at a time from the server (GET /api/tasks/history, by cursor); the user's data gifts; then, in its own section, the points
 * statement in plain words (every movement of the balance, docs/redemption-screens.md), its
 * technical references behind each entry's "Details".
 */
export default function HistoryPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useDocumentTitle(t('earning.history.title'));
  const tasks = useInfiniteQuery<TaskPage, Error, InfiniteData<TaskPage, string | null>, readonly string[], string | null>({
    queryKey: TASK_HISTORY_QUERY_KEY,
    queryFn: ({ pageParam, signal }) => fetchMissions(pageParam, signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const list = useMemo(() => tasks.data?.pages.flatMap((p) => p.items) ?? [], [tasks.data]);
  const totals = tasks.data?.pages[0]?.totals;

  let missions: ReactNode;
  if (tasks.isPending) {
    missions = (
      <Card className="walls-loading">
        <Spinner label={t('earning.history.loading')} />
        <span className="muted small" aria-hidden="true">
          {t('earning.history.loading')}
        </span>
      </Card>
    );
  } else if (tasks.isError) {
    missions = <LoadError title={t('earning.history.error')} error={tasks.error} onRetry={() => void tasks.refetch()} retrying={tasks.isFetching} />;
  } else {
    missions =
      list.length === 0 ? (
        <EmptyHistory />
      ) : (
        <History
          tasks={list}
          total={totals?.tasks ?? list.length}
          more={tasks.hasNextPage}
          loadingMore={tasks.isFetchingNextPage}
          moreFailed={tasks.isFetchNextPageError}
          onMore={() => void tasks.fetchNextPage()}
        />
      );
  }

  return (
    <>
      <main id="main" className="page page--with-nav earning">
        <PageHeader title={t('earning.history.title')} subtitle={t('earning.history.subtitle')} back={{ to: '/dashboard', label: t('common.back') }} />
        {totals && <Totals {...totals} />}
        {user && <NegativeBalanceNote user={user} />}
        {user && user.pendingPoints > 0 && (
          <Card>
            <HeldPoints user={user} />
          </Card>
        )}
        <MissingCreditLink />
        <section className="stack" aria-labelledby="missions-title">
          <h2 id="missions-title" className="section-title">
            {t('statement.missionsTitle')}
          </h2>
          {missions}
        </section>
        <GiftHistory />
        <PointsStatement />
      </main>
      <HistoryNav />
    </>
  );
}

function EmptyHistory() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        headingLevel={3}
        icon={<ClockIcon size={32} />}
        title={t('earning.history.emptyTitle')}
        description={t('earning.history.emptyText')}
        action={
          <ButtonLink to="/task" size="lg" block icon={<TargetIcon size={20} />}>
            {t('earning.history.startFirst')}
          </ButtonLink>
        }
      />
    </Card>
  );
}

function Totals({ earnedMb, missions }: { earnedMb: number; missions: number }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <Card tone="brand" className="history-totals" aria-labelledby="history-totals-title">
      <h2 id="history-totals-title" className="visually-hidden">
        {t('earning.history.totals')}
      </h2>
      <dl className="facts history-totals__grid">
        <div>
          <dt>{t('earning.history.earned')}</dt>
          <dd data-testid="history-earned">{t('common.mbValue', { value: n(earnedMb) })}</dd>
        </div>
        <div>
          <dt>{t('earning.history.missions')}</dt>
          <dd data-testid="history-missions">{n(missions)}</dd>
        </div>
      </dl>
    </Card>
  );
}

interface HistoryProps {
  /** The missions of the pages loaded so far, newest first. */
  tasks: TaskRecord[];
  /** Every mission of the user, loaded or not. */
  total: number;
  more: boolean;
  loadingMore: boolean;
  moreFailed: boolean;
  onMore: () => void;
}

function History({ tasks, total, more, loadingMore, moreFailed, onMore }: HistoryProps) {
  const { t, i18n } = useTranslation();
  const days = useMemo(() => groupTasksByDay(tasks), [tasks]);
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <>
      {days.map((day) => {
        const headingId = `day-${day.key}`;
        return (
          <section key={day.key} className="history-day" aria-labelledby={headingId}>
            <h3 id={headingId} className="history-day__title">
              <time dateTime={day.key}>{dayLabel(day.date, i18n.language)}</time>
            </h3>
            <ul className="history-list">
              {day.tasks.map((task) => {
                const reversed = task.completed === false;
                const kind: TaskKind = Object.hasOwn(TASK_KIND_LABEL_KEYS, task.kind) ? task.kind : 'other';
                const provider = task.provider && Object.hasOwn(OFFERWALL_NAMES, task.provider) ? OFFERWALL_NAMES[task.provider as OfferwallId] : null;
                return (
                  <li key={task.id} className={['history-item', reversed && 'history-item--reversed'].filter(Boolean).join(' ')} data-testid="history-item">
                    <span className={`icon-badge icon-badge--tile history-item__icon--${kind}`} aria-hidden="true">
                      {KIND_ICONS[kind]}
                    </span>
                    <div className="history-item__body">
                      {/* The offer's name where the wall sent one, its kind under it: one plain label per kind. */}
                      <p className="history-item__type">{task.offerName || t(TASK_KIND_LABEL_KEYS[kind])}</p>
                      <p className="history-item__meta">
                        {task.offerName && <span data-testid="history-kind">{t(TASK_KIND_LABEL_KEYS[kind])} · </span>}
                        <time dateTime={task.completedAt}>{formatDate(task.completedAt, i18n.language, { timeStyle: 'short' })}</time>
                        {provider && <span> · {t('earning.history.via', { provider })}</span>}
                      </p>
                      {reversed && <p className="history-item__reversed">{t('earning.history.reversedText')}</p>}
                    </div>
                    <div className="history-item__amount">
                      <span className={reversed ? 'history-item__points history-item__points--void' : 'history-item__points'}>
                        {t('earning.history.amount', { value: n(task.pointsEarned) })}
                      </span>
                      {reversed && <span className="badge badge--danger">{t('earning.history.reversed')}</span>}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
      <div className="statement-more">
        <p className="small muted" aria-live="polite" data-testid="missions-shown">
          {t('historyView.shownOf', { shown: n(tasks.length), total: n(Math.max(total, tasks.length)) })}
        </p>
        {more && (
          <Button variant="secondary" block busy={loadingMore} busyText={t('common.loading')} onClick={onMore}>
            {t('historyView.showMore')}
          </Button>
        )}
        {moreFailed && (
          <p className="small statement-more__error" role="alert">
            {t('historyView.moreError')}
          </p>
        )}
      </div>
    </>
  );
}
