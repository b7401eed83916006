import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CaptchaDialog } from '../../components/captcha/CaptchaDialog';
import { formatNumber } from '../../lib/format';
import { ArrowBackIcon, ArrowForwardIcon, Button, ButtonLink, Card, Dialog, PageHeader, TargetIcon, useToast } from '../../ui';
import { GamepadIcon, PlayIcon, UserPlusIcon } from '../../ui/icons';
import { COMING_SOON_MISSIONS, TASK_KIND_LABEL_KEYS, type ComingSoonMission } from './missions';

const MISSION_ICONS: Record<ComingSoonMission['key'], (size: number) => ReactNode> = {
  installGame: (size) => <GamepadIcon size={size} />,
  watchVideo: (size) => <PlayIcon size={size} />,
  signUp: (size) => <UserPlusIcon size={size} />,
};

/** Router state: which mission link gets focus back when the detail view closes. */
export interface TaskLocationState {
  focusMission?: string;
  focusWalls?: boolean;
}

const missionLinkId = (id: string) => `mission-link-${id}`;

function useMissionText(mission: ComingSoonMission) {
  const { t, i18n } = useTranslation();
  const mb = formatNumber(mission.rewardMb, i18n.language);
  return {
    title: t(`earning.missions.items.${mission.key}.title`),
    description: t(`earning.missions.items.${mission.key}.description`),
    steps: [t('earning.missions.stepStart'), t(`earning.missions.items.${mission.key}.step`), t('earning.missions.stepClaim', { mb })],
    reward: t('earning.missions.reward', { mb }),
    type: t(TASK_KIND_LABEL_KEYS[mission.kind]),
    difficulty: t(`earning.missions.difficulty.${mission.difficulty}`),
  };
}

/** The 'Coming Soon' list of /task: each mission opens its detail view (`?mission=<id>`). */
export function ComingSoonMissions() {
  const { t } = useTranslation();
  const location = useLocation();
  const focusMission = (location.state as TaskLocationState | null)?.focusMission;

  useEffect(() => {
    if (focusMission) document.getElementById(missionLinkId(focusMission))?.focus();
  }, [focusMission]);

  return (
    <section className="stack" aria-labelledby="coming-soon-title">
      <div className="stack stack--sm">
        <div className="row row--between">
          <h2 id="coming-soon-title" className="section-title">
            {t('earning.missions.title')}
          </h2>
          <span className="badge">{t('earning.missions.badge')}</span>
        </div>
        <p className="muted small">{t('earning.missions.subtitle')}</p>
      </div>
      <ul className="mission-list">
        {COMING_SOON_MISSIONS.map((mission) => (
          <li key={mission.id}>
            <MissionLink mission={mission} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function MissionLink({ mission }: { mission: ComingSoonMission }) {
  const text = useMissionText(mission);
  return (
    <Link id={missionLinkId(mission.id)} to={`?mission=${mission.id}`} className="mission-item" data-testid={`mission-${mission.id}`}>
      <span className="mission-item__icon" aria-hidden="true">
        {MISSION_ICONS[mission.key](24)}
      </span>
      <span className="mission-item__body">
        <span className="mission-item__title">{text.title}</span>
        <span className="mission-item__meta">
          {text.type} · {text.difficulty}
        </span>
      </span>
      <span className="mission-item__reward">{text.reward}</span>
      <ArrowForwardIcon size={18} className="mission-item__arrow" />
    </Link>
  );
}

/**
 * A mission's detail view: what to do, Start Mission and Back to Missions. Start runs the security
 * check (the placeholder missions credit nothing); with no points yet, a dialog explains how to
 * earn the first ones instead.
 */
export function MissionDetail({ mission, points }: { mission: ComingSoonMission; points: number }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const navigate = useNavigate();
  const text = useMissionText(mission);
  const headingRef = useRef<HTMLDivElement>(null);
  const [dialog, setDialog] = useState<'captcha' | 'firstPoints' | null>(null);
  const back = { pathname: '/task' };
  const backState: TaskLocationState = { focusMission: mission.id };

  // The view replaces the list: move focus to its heading so it is announced.
  useEffect(() => {
    const heading = headingRef.current?.querySelector<HTMLElement>('h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [mission.id]);

  const start = () => setDialog(points <= 0 ? 'firstPoints' : 'captcha');

  return (
    <>
      <div ref={headingRef} className="mission-detail__header">
        <PageHeader title={text.title} subtitle={t('earning.missions.detailSubtitle')} back={{ onClick: () => navigate(back, { state: backState }), label: t('earning.missions.back') }} />
      </div>
      <Card className="mission-detail" aria-labelledby="mission-about">
        <div className="mission-detail__top">
          <span className="mission-detail__icon" aria-hidden="true">
            {MISSION_ICONS[mission.key](32)}
          </span>
          <div className="stack stack--sm">
            <h2 id="mission-about" className="section-title">
              {t('earning.missions.about')}
            </h2>
            <p className="muted">{text.description}</p>
          </div>
        </div>
        <dl className="facts facts--tiles mission-facts">
          <div>
            <dt>{t('earning.missions.rewardLabel')}</dt>
            <dd className="mission-facts__reward">{text.reward}</dd>
          </div>
          <div>
            <dt>{t('earning.missions.typeLabel')}</dt>
            <dd>{text.type}</dd>
          </div>
          <div>
            <dt>{t('earning.missions.difficultyLabel')}</dt>
            <dd>{text.difficulty}</dd>
          </div>
        </dl>
      </Card>
      <Card title={t('earning.missions.instructions')} titleId="mission-steps">
        <ol className="steps-list">
          {text.steps.map((step, i) => (
            <li key={i}>
              <span className="icon-badge steps-list__number" aria-hidden="true">
                {i + 1}
              </span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        <p className="mission-note" id="mission-note">
          {t('earning.missions.previewNote')}
        </p>
      </Card>
      <div className="stack stack--sm">
        <Button size="lg" block icon={<TargetIcon size={20} />} aria-describedby="mission-note" onClick={start}>
          {t('earning.missions.start')}
        </Button>
        <ButtonLink to={back} state={backState} variant="secondary" size="lg" block icon={<ArrowBackIcon size={20} />}>
          {t('earning.missions.back')}
        </ButtonLink>
      </div>
      <CaptchaDialog
        open={dialog === 'captcha'}
        onClose={() => setDialog(null)}
        description={t('earning.missions.captchaDescription', { mission: text.title })}
        onVerified={() =>
          toast({ title: t('earning.missions.verifiedTitle'), description: t('earning.missions.verifiedText', { mission: text.title }), variant: 'success', duration: 8000 })
        }
      />
      <FirstPointsDialog open={dialog === 'firstPoints'} onClose={() => setDialog(null)} />
    </>
  );
}

/** With 0 points, missions are not open yet: how to earn the first points (product-decisions.md). */
function FirstPointsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const primaryRef = useRef<HTMLButtonElement>(null);
  const state: TaskLocationState = { focusWalls: true };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('earning.firstPoints.title')}
      description={t('earning.firstPoints.text')}
      closeLabel={t('common.close')}
      initialFocusRef={primaryRef}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('earning.firstPoints.later')}
          </Button>
          <Button
            ref={primaryRef}
            onClick={() => {
              onClose();
              navigate({ pathname: '/task' }, { state });
            }}
          >
            {t('earning.firstPoints.cta')}
          </Button>
        </>
      }
    >
      <ol className="steps-list">
        {[1, 2, 3].map((n) => (
          <li key={n}>
            <span className="icon-badge steps-list__number" aria-hidden="true">
              {n}
            </span>
            <span>{t(`earning.firstPoints.step${n}`)}</span>
          </li>
        ))}
      </ol>
      <p className="muted small">{t('earning.firstPoints.note')}</p>
    </Dialog>
  );
}
