import { useEffect, useRef } from 'react';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REDEMPTION_THRESHOLD_POINTS, type UserView } from '@esim/contracts';
import { USER_QUERY_KEY, useAuth } from '../auth/AuthProvider';
import { AppNav } from '../components/AppNav';
import { formatNumber } from '../lib/format';
import { pendingProgress, redemptionProgress } from '../lib/points';
import { HeldPoints } from './earning/HeldPoints';
import { MissingCreditLink } from './claims/MissingCreditLink';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ArrowForwardIcon, ButtonLink, Card, CheckIcon, GiftIcon, PageHeader, ProgressBar } from '../ui';
import { RefreshIcon } from '../ui/icons';
import { ComingSoonMissions, MissionDetail, type TaskLocationState } from './earning/Missions';
import { missionById } from './earning/missions';
import { OfferwallsSection } from './earning/Offerwalls';
import './earning/earning.css';

/**
 * /task: the points card, the offer walls the server enables, and the 'Coming Soon' missions
 * (spec section 2). `?mission=<id>` shows one mission's detail view.
 */
export default function TaskPage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const mission = missionById(params.get('mission'));
  useDocumentTitle(mission ? t(`earning.missions.items.${mission.key}.title`) : t('earning.task.title'));
  if (!user) return null;
  return (
    <>
      <main id="main" className="page page--with-nav earning">
        {mission ? <MissionDetail key={mission.id} mission={mission} points={user.points} /> : <MissionsHome user={user} />}
      </main>
      <AppNav />
    </>
  );
}

function MissionsHome({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const location = useLocation();
  const wallsHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusWalls = (location.state as TaskLocationState | null)?.focusWalls;

  useEffect(() => {
    if (focusWalls) wallsHeadingRef.current?.focus();
  }, [focusWalls, location.key]);

  return (
    <>
      <PageHeader title={t('earning.task.title')} subtitle={t('earning.task.subtitle')} back={{ to: '/dashboard', label: t('common.back') }} />
      <PointsCard user={user} />
      <OfferwallsSection headingRef={wallsHeadingRef} />
      <MissingCreditLink />
      <ComingSoonMissions />
    </>
  );
}

/** MB earned and MB still needed toward the redemption threshold, or the ready message. */
function PointsCard({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const refreshing = useIsFetching({ queryKey: USER_QUERY_KEY }) > 0;
  const n = (value: number) => formatNumber(value, i18n.language);
  const { percent, remaining, ready } = redemptionProgress(user.points);
  return (
    <Card tone="brand" className="points-card" aria-labelledby="task-points-title">
      <div className="row row--between">
        <h2 id="task-points-title" className="progress-card__label">
          {t('earning.points.title')}
        </h2>
        <button
          type="button"
          className="icon-button icon-button--sm points-card__refresh"
          aria-label={t('earning.points.refresh')}
          aria-busy={refreshing || undefined}
          disabled={refreshing}
          onClick={() => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY })}
        >
          <RefreshIcon size={18} className={refreshing ? 'spin' : undefined} />
        </button>
      </div>
      <dl className="points-card__stats">
        <div>
          <dt>{t('earning.points.earned')}</dt>
          <dd data-testid="task-points">{t('common.mbValue', { value: n(user.points) })}</dd>
        </div>
        {!ready && (
          <div>
            <dt>{t('earning.points.needed')}</dt>
            <dd>{t('common.mbValue', { value: n(remaining) })}</dd>
          </div>
        )}
        {user.pendingPoints > 0 && (
          <div>
            <dt>{t('held.cardLabel')}</dt>
            <dd data-testid="task-pending-points">{t('common.mbValue', { value: n(user.pendingPoints) })}</dd>
          </div>
        )}
      </dl>
      <ProgressBar
        value={percent}
        pending={pendingProgress(user.points, user.pendingPoints)}
        label={t('dashboard.progress.barLabel', { goal: n(REDEMPTION_THRESHOLD_POINTS) })}
        valueText={
          user.pendingPoints > 0
            ? t('held.barValue', { percent: n(Math.floor(percent)), mb: n(user.pendingPoints) })
            : t('dashboard.progress.percent', { percent: n(Math.floor(percent)) })
        }
      />
      <HeldPoints user={user} />
      {ready ? (
        <div className="points-card__ready">
          <p className="points-card__ready-text">
            <CheckIcon size={18} />
            <span>{t('earning.points.ready')}</span>
          </p>
          <ButtonLink to="/iccid" variant="gold" block icon={<GiftIcon size={20} />}>
            {t('earning.points.claim')}
          </ButtonLink>
        </div>
      ) : (
        <p className="points-card__hint">{t('earning.points.neededHint', { mb: n(remaining), goal: n(REDEMPTION_THRESHOLD_POINTS) })}</p>
      )}
      <Link to="/adwall" className="points-card__link">
        <span>{t('earning.points.adwallLink')}</span>
        <ArrowForwardIcon size={16} />
      </Link>
    </Card>
  );
}
