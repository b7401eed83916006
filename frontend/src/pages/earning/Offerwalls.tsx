import { useEffect, useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Offerwall, OfferwallsResponse } from '@esim/contracts';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { Card, EmptyState, SparkIcon, Spinner } from '../../ui';
import { ChevronDownIcon } from '../../ui/icons';
import { LoadError } from './LoadError';
import { OFFERWALLS_QUERY_KEY, TASKS_QUERY_KEY } from './queryKeys';


/**
 * The offer walls the server enables for this user (`GET /api/offerwalls`; a wall without
 * credentials outside sandbox mode is not listed). Each is a card that opens to its embed.
 */
export function OfferwallsSection({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation();
  const walls = useQuery<OfferwallsResponse>({ queryKey: OFFERWALLS_QUERY_KEY });

  let body: ReactNode;
  if (walls.isPending) {
    body = (
      <Card className="walls-loading">
        <Spinner label={t('earning.walls.loading')} />
        <span className="muted small" aria-hidden="true">
          {t('earning.walls.loading')}
        </span>
      </Card>
    );
  } else if (walls.isError) {
    body = <LoadError title={t('earning.walls.error')} error={walls.error} onRetry={() => void walls.refetch()} retrying={walls.isFetching} />;
  } else if (!walls.data?.walls?.length) {
    body = (
      <Card>
        <EmptyState headingLevel={3} icon={<SparkIcon size={32} />} title={t('earning.walls.emptyTitle')} description={t('earning.walls.emptyText')} />
      </Card>
    );
  } else {
    body = (
      <ul className="wall-list">
        {walls.data.walls.map((wall, index) => (
          <li key={wall.id}>
            <OfferwallCard wall={wall} defaultOpen={index === 0} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section id="offerwalls" className="stack" aria-labelledby="walls-title">
      <div className="stack stack--sm">
        <h2 id="walls-title" ref={headingRef} tabIndex={-1} className="section-title">
          {t('earning.walls.title')}
        </h2>
        <p className="muted small">{t('earning.walls.subtitle')}</p>
      </div>
      {body}
    </section>
  );
}

/** One wall: a disclosure (heading + button, aria-expanded) whose panel holds the embed. */
function OfferwallCard({ wall, defaultOpen }: { wall: Offerwall; defaultOpen: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(defaultOpen);
  // Once opened, the embed stays mounted (closing only hides it), so the wall keeps its state.
  const [mounted, setMounted] = useState(defaultOpen);
  const headingId = `wall${id}-heading`;
  const panelId = `wall${id}-panel`;

  return (
    <section className="card wall-card" aria-labelledby={headingId} data-wall={wall.id}>
      <h3 id={headingId} className="wall-card__heading">
        <button
          type="button"
          className="wall-card__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => {
            setOpen((o) => !o);
            setMounted(true);
          }}
        >
          <span className="icon-badge icon-badge--tile" aria-hidden="true">
            <SparkIcon size={20} />
          </span>
          <span className="wall-card__name">{wall.name}</span>
          {wall.sandbox && <span className="badge badge--warning">{t('earning.walls.sandbox')}</span>}
          <span className="wall-card__chevron">
            <ChevronDownIcon size={20} />
          </span>
        </button>
      </h3>
      <div id={panelId} className="wall-card__panel" hidden={!open}>
        {wall.sandbox && <p className="wall-card__note">{t('earning.walls.sandboxNote')}</p>}
        {mounted && (wall.embed.kind === 'iframe' ? <WallFrame name={wall.name} url={wall.embed.url} /> : <CpxSurveyWidget scriptUrl={wall.embed.scriptUrl} config={wall.embed.config} />)}
      </div>
    </section>
  );
}

/** After the wall navigates (an offer done, a postback sent), the balance and history may have moved. */
function useRefreshEarnings() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: TASKS_QUERY_KEY });
  };
}

function WallFrame({ name, url }: { name: string; url: string }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState(false);
  const loads = useRef(0);
  const refresh = useRefreshEarnings();
  return (
    <div className="wall-frame">
      {!loaded && (
        <div className="wall-frame__loading">
          <Spinner label={t('earning.walls.frameLoading', { name })} />
        </div>
      )}
      <iframe
        className="wall-frame__iframe"
        src={url}
        title={t('earning.walls.frameTitle', { name })}
        // No top navigation: a wall can open offers in new tabs, never replace this page.
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="strict-origin-when-cross-origin"
        onLoad={() => {
          setLoaded(true);
          loads.current += 1;
          if (loads.current > 1) refresh();
        }}
      />
    </div>
  );
}

/** CPX Research's five containers: full list, sidebar, two single-survey boxes, notification. */
const CPX_CONTAINERS = [
  { div_id: 'cpx-fullcontent', theme_style: 1, order_by: 2, limit_surveys: 12 },
  { div_id: 'cpx-sidebar', theme_style: 2, order_by: 1, limit_surveys: 7 },
  { div_id: 'cpx-single-best', theme_style: 3, order_by: 1, display_mode: 3 },
  { div_id: 'cpx-single-money', theme_style: 3, order_by: 2, display_mode: 3 },
  { div_id: 'cpx-notification', theme_style: 4, position: 6 },
] as const;

declare global {
  interface Window {
    /** CPX Research's script tag reads its settings from `window.config`. */
    config?: unknown;
  }
}

/**
 * CPX Research's survey widget (live mode): `window.config` is set before the provider's script
 * loads, and the script fills the five containers. In sandbox mode CPX is an iframe like the rest.
 */
function CpxSurveyWidget({ scriptUrl, config }: { scriptUrl: string; config: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [noSurveys, setNoSurveys] = useState(false);
  const refresh = useRefreshEarnings();
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  useEffect(() => {
    window.config = {
      general_config: config,
      style_config: {
        text_color: '#14142b',
        survey_box: { topbar_background_color: '#4c3bcf', box_background_color: '#ffffff', rounded_borders: true, stars_filled: '#e9a400' },
      },
      script_config: CPX_CONTAINERS,
      debug: false,
      useIFrame: true,
      iFramePosition: 1,
      functions: {
        // Never alert() here: CPX documents an endless loop.
        no_surveys_available: () => setNoSurveys(true),
        count_new_surveys: () => undefined,
        get_all_surveys: () => undefined,
        get_transaction: () => refreshRef.current(),
      },
    };
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onload = () => setState('ready');
    script.onerror = () => setState('failed');
    document.body.appendChild(script);
    return () => {
      script.remove();
      delete window.config;
    };
  }, [scriptUrl, config]);

  return (
    <div className="cpx-widget" aria-busy={state === 'loading' || undefined}>
      {state === 'loading' && <Spinner label={t('earning.walls.widgetLoading')} />}
      {state === 'failed' && (
        <p role="alert" className="form-error">
          {t('earning.walls.widgetFailed')}
        </p>
      )}
      {noSurveys && <p className="muted small">{t('earning.walls.noSurveys')}</p>}
      {CPX_CONTAINERS.map((c) => (
        <div key={c.div_id} id={c.div_id} className={`cpx-widget__slot cpx-widget__slot--${c.theme_style}`} />
      ))}
    </div>
  );
}
