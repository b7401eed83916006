import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CaptchaConfig } from '@esim/contracts';
import { useErrorText } from '../../lib/useErrorText';
import { Button, CheckIcon, ShieldIcon, Spinner } from '../../ui';
import { loadTurnstile, type TurnstileApi } from './turnstile';
import './captcha.css';

export const CAPTCHA_CONFIG_KEY = ['/api/captcha/config'] as const;

/** Turnstile tokens, and the sandbox's, are good for 300 s. */
const TOKEN_LIFETIME_MS = 300_000;

export interface CaptchaWidgetProps {
  /** A fresh token from the widget. */
  onToken: (token: string) => void;
  /** The token is gone: the widget failed, the token expired, or the person unticked the box. */
  onLost: (why: 'failed' | 'expired' | 'cleared') => void;
  /** Changing this number resets the widget (e.g. after the server refused its token). */
  resetSignal: number;
}

/**
 * The captcha: Cloudflare Turnstile with the site key of `GET /api/captcha/config`, or — when the
 * gateway says verification is the local sandbox — an "I'm not a robot" checkbox that mints a
 * `sandbox-pass-…` token without contacting Cloudflare.
 */
export function CaptchaWidget(props: CaptchaWidgetProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const config = useQuery<CaptchaConfig>({ queryKey: CAPTCHA_CONFIG_KEY });

  if (config.isPending) {
    return (
      <div className="captcha captcha--pending">
        <Spinner size="sm" />
        <span>{t('captcha.loading')}</span>
      </div>
    );
  }
  if (config.isError || !config.data) {
    return (
      <div className="captcha captcha--error" role="alert">
        <p>{t('captcha.loadFailed')}</p>
        <p className="small">{errorText(config.error)}</p>
        <Button variant="secondary" size="sm" onClick={() => void config.refetch()}>
          {t('captcha.retry')}
        </Button>
      </div>
    );
  }
  return config.data.sandbox ? <SandboxCaptcha {...props} /> : <TurnstileCaptcha siteKey={config.data.siteKey} {...props} />;
}

function randomToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `sandbox-pass-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The sandbox widget: a labelled native checkbox; its token expires like a real one. */
function SandboxCaptcha({ onToken, onLost, resetSignal }: CaptchaWidgetProps) {
  const { t } = useTranslation();
  const id = useId();
  const [checked, setChecked] = useState(false);
  const lostRef = useRef(onLost);
  lostRef.current = onLost;

  useEffect(() => setChecked(false), [resetSignal]);

  useEffect(() => {
    if (!checked) return;
    const timer = window.setTimeout(() => {
      setChecked(false);
      lostRef.current('expired');
    }, TOKEN_LIFETIME_MS);
    return () => window.clearTimeout(timer);
  }, [checked]);

  return (
    <div className={['captcha', 'captcha--sandbox', checked && 'captcha--done'].filter(Boolean).join(' ')}>
      <div className="captcha__row">
        <input
          id={`captcha${id}`}
          type="checkbox"
          className="captcha__checkbox"
          checked={checked}
          aria-describedby={`captcha${id}-note`}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setChecked(next);
            if (next) onToken(randomToken());
            else onLost('cleared');
          }}
        />
        <label htmlFor={`captcha${id}`} className="captcha__label">
          {t('captcha.notRobot')}
        </label>
        <span className="captcha__mark" aria-hidden="true">
          {checked ? <CheckIcon size={22} /> : <ShieldIcon size={22} />}
        </span>
      </div>
      <p id={`captcha${id}-note`} className="captcha__note">
        {t('captcha.sandboxNote')}
      </p>
    </div>
  );
}

type LoadState = 'loading' | 'ready' | 'failed';

/** Live Turnstile, rendered explicitly into this component's box and removed with it. */
function TurnstileCaptcha({ siteKey, onToken, onLost, resetSignal }: CaptchaWidgetProps & { siteKey: string }) {
  const { t, i18n } = useTranslation();
  const boxRef = useRef<HTMLDivElement>(null);
  const widgetRef = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const [state, setState] = useState<LoadState>('loading');
  const [attempt, setAttempt] = useState(0);
  const handlers = useRef({ onToken, onLost });
  handlers.current = { onToken, onLost };

  useEffect(() => {
    let cancelled = false;
    setState('loading');
    loadTurnstile().then(
      (api) => {
        if (cancelled || !boxRef.current) return;
        const id = api.render(boxRef.current, {
          sitekey: siteKey,
          language: i18n.language,
          theme: 'light',
          size: 'flexible',
          'refresh-expired': 'manual',
          callback: (token) => handlers.current.onToken(token),
          'error-callback': () => {
            handlers.current.onLost('failed');
            return true;
          },
          'expired-callback': () => handlers.current.onLost('expired'),
          'timeout-callback': () => handlers.current.onLost('expired'),
        });
        if (id) widgetRef.current = { api, id };
        setState('ready');
      },
      () => {
        if (!cancelled) setState('failed');
      },
    );
    return () => {
      cancelled = true;
      const widget = widgetRef.current;
      widgetRef.current = null;
      if (widget) widget.api.remove(widget.id);
    };
    // The widget keeps the language it was rendered with (not a dependency on purpose).
  }, [siteKey, attempt]);

  const firstReset = useRef(true);
  useEffect(() => {
    if (firstReset.current) {
      firstReset.current = false;
      return;
    }
    const widget = widgetRef.current;
    if (widget) widget.api.reset(widget.id);
  }, [resetSignal]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return (
    <div className="captcha captcha--turnstile">
      <div ref={boxRef} className="captcha__box" />
      {state === 'loading' && (
        <div className="captcha__status">
          <Spinner size="sm" />
          <span>{t('captcha.loading')}</span>
        </div>
      )}
      {state === 'failed' && (
        <div className="captcha__status captcha--error" role="alert">
          <p>{t('captcha.loadFailed')}</p>
          <Button variant="secondary" size="sm" onClick={retry}>
            {t('captcha.retry')}
          </Button>
        </div>
      )}
    </div>
  );
}
