import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OfferwallId, TaskType } from '@esim/contracts';
import { useAuth } from '../auth/AuthProvider';
import { formatDate, formatNumber } from '../lib/format';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Button, ButtonLink, Card, ClockIcon, EmptyState, GiftIcon, PageHeader, SparkIcon, Spinner, TargetIcon } from '../ui';
import { dayLabel, groupTasksByDay, taskTotals, type TaskRecord } from './earning/history';
import { HeldPoints, NegativeBalanceNote } from './earning/HeldPoints';
import { HistoryNav } from './earning/HistoryNav';
import { MissingCreditLink } from './claims/MissingCreditLink';
import { GamepadIcon, PlayIcon } from '../ui/icons';
import { LoadError } from './earning/LoadError';
import { OFFERWALL_NAMES, TASK_TYPE_LABEL_KEYS } from './earning/missions';
import { PointsStatement } from './statement/PointsStatement';
import { GiftHistory } from './redeem/GiftHistory';
import { TASKS_QUERY_KEY } from './earning/queryKeys';
import './earning/earning.css';

const TYPE_ICONS: Record<TaskType, ReactNode> = {
  ad_view: <PlayIcon size={20} />,
  offer_completion: <SparkIcon size={20} />,
  app_install: <GamepadIcon size={20} />,
  other: <GiftIcon size={20} />,
};

/** Missions shown at first, and added by each "Show more": a long history stays a short page. */
export const MISSIONS_PAGE = 20;

/**
 * /history: the totals of the missions, then the missions grouped by day, newest day first (spec
 * section 2), a page at a time; the user's data gifts; then, in its own section, the points
 * statement in plain words (every movement of the balance, docs/redemption-screens.md), its
 * technical references behind each entry's "Details".
 */
export default function HistoryPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useDocumentTitle(t('earning.history.title'));
  const tasks = useQuery<TaskRecord[]>({ queryKey: TASKS_QUERY_KEY });
  const list = useMemo(() => (Array.isArray(tasks.data) ? tasks.data : []), [tasks.data]);
  const totals = useMemo(() => taskTotals(list), [list]);

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
    missions = list.length === 0 ? <EmptyHistory /> : <History tasks={list} />;
  }

  return (
    <>
      <main id="main" className="page page--with-nav earning">
        <PageHeader title={t('earning.history.title')} subtitle={t('earning.history.subtitle')} back={{ to: '/dashboard', label: t('common.back') }} />
        {tasks.isSuccess && <Totals {...totals} />}
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

function History({ tasks }: { tasks: TaskRecord[] }) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(MISSIONS_PAGE);
  const days = useMemo(() => groupTasksByDay(tasks.slice(0, shown)), [tasks, shown]);
  const n = (value: number) => formatNumber(value, i18n.language);
  const more = tasks.length > shown;
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
                const type = (task.taskType in TASK_TYPE_LABEL_KEYS ? task.taskType : 'other') as TaskType;
                const provider = task.provider && Object.hasOwn(OFFERWALL_NAMES, task.provider) ? OFFERWALL_NAMES[task.provider as OfferwallId] : null;
                return (
                  <li key={task.id} className={['history-item', reversed && 'history-item--reversed'].filter(Boolean).join(' ')} data-testid="history-item">
                    <span className={`icon-badge icon-badge--tile history-item__icon--${type}`} aria-hidden="true">
                      {TYPE_ICONS[type]}
                    </span>
                    <div className="history-item__body">
                      {/* The offer's name where the wall sent one, its kind under it: one plain label per kind. */}
                      <p className="history-item__type">{task.offerName || t(TASK_TYPE_LABEL_KEYS[type])}</p>
                      <p className="history-item__meta">
                        {task.offerName && <span>{t(TASK_TYPE_LABEL_KEYS[type])} · </span>}
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
          {t('historyView.shownOf', { shown: n(Math.min(shown, tasks.length)), total: n(tasks.length) })}
        </p>
        {more && (
          <Button variant="secondary" block onClick={() => setShown((s) => s + MISSIONS_PAGE)}>
            {t('historyView.showMore')}
          </Button>
        )}
      </div>
    </>
  );
}
