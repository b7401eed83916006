import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TwoFactorEnableResponse, TwoFactorSetupResponse, UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { BRAND_NAME } from '../../brand';
import { apiJson, apiRequest } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Input, useToast } from '../../ui';

/** The enrolment's QR code, drawn by the gateway (`POST /api/generate-qr`); the key below is the fallback. */
function OtpauthQr({ url }: { url: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    void apiRequest('POST', '/api/generate-qr', { data: url })
      .then((res) => res.blob())
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch((err: unknown) => console.error('QR code generation failed', err));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src ? <img className="two-factor__qr" src={src} alt={t('profile.twoFactor.qrAlt')} width={200} height={200} data-testid="two-factor-qr" /> : null;
}

/** Offers the recovery codes as a text file, one code a line. */
function downloadCodes(codes: string[], header: string) {
  const blob = new Blob([`${header}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'dados-gratis-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

type Step = { kind: 'idle' } | { kind: 'enrolling'; setup: TwoFactorSetupResponse } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' };

/**
 * Two-factor sign-in on /profile: the switch shows the real state, and turning it on goes through
 * enrolment (scan, confirm with a code, keep the recovery codes); turning it off asks for a code.
 */
export function TwoFactorSettings({ user }: { user: UserView }) {
  const { t } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const on = user.settings.twoFactorAuth;

  const setUser = (next: UserView) => queryClient.setQueryData(USER_QUERY_KEY, next);
  const failed = (error: Error) => toast({ title: t('profile.twoFactor.failed'), description: errorText(error), variant: 'destructive' });

  const setup = useMutation<TwoFactorSetupResponse, Error>({
    mutationFn: () => apiJson('POST', '/api/user/2fa/setup'),
    onSuccess: (answer) => {
      setCode('');
      setStep({ kind: 'enrolling', setup: answer });
    },
    onError: failed,
  });
  const enable = useMutation<TwoFactorEnableResponse, Error, string>({
    mutationFn: (value) => apiJson('POST', '/api/user/2fa/enable', { code: value }),
    onSuccess: (answer) => {
      setStep({ kind: 'codes', codes: answer.recoveryCodes });
      setUser(answer.user);
      toast({ title: t('profile.twoFactor.enabled'), variant: 'success' });
    },
    onError: failed,
  });
  const disable = useMutation<{ user: UserView }, Error, string>({
    mutationFn: (value) => apiJson('POST', '/api/user/2fa/disable', { code: value }),
    onSuccess: (answer) => {
      setStep({ kind: 'idle' });
      setUser(answer.user);
      toast({ title: t('profile.twoFactor.disabled'), variant: 'success' });
    },
    onError: failed,
  });

  const submit = (event: FormEvent, run: (value: string) => void) => {
    event.preventDefault();
    if (code.trim()) run(code.trim());
  };

  return (
    <Card title={t('profile.twoFactor.title')} titleId="two-factor-title" className="two-factor">
      <p className="muted" data-testid="two-factor-state">
        {on ? t('profile.twoFactor.on') : t('profile.twoFactor.off')}
      </p>

      {step.kind === 'idle' && !on && (
        <Button onClick={() => setup.mutate()} busy={setup.isPending} busyText={t('common.loading')}>
          {t('profile.twoFactor.setUp')}
        </Button>
      )}

      {step.kind === 'enrolling' && (
        <form className="form" onSubmit={(e) => submit(e, (v) => enable.mutate(v))} noValidate>
          <p>{t('profile.twoFactor.scan')}</p>
          <OtpauthQr url={step.setup.otpauthUrl} />
          <p className="small">
            {t('profile.twoFactor.key')}: <code className="two-factor__key" data-testid="two-factor-secret">{step.setup.secret}</code>
          </p>
          <Input
            label={t('profile.twoFactor.code')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="button-row">
            <Button type="submit" busy={enable.isPending} busyText={t('profile.twoFactor.enabling')}>
              {t('profile.twoFactor.enable')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'idle' })}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      )}

      {step.kind === 'codes' && (
        <div role="region" aria-labelledby="recovery-codes-title">
          <h3 id="recovery-codes-title">{t('profile.twoFactor.recoveryTitle')}</h3>
          <p>{t('profile.twoFactor.recoveryText')}</p>
          <ul className="two-factor__codes" data-testid="recovery-codes">
            {step.codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <div className="button-row">
            <Button type="button" variant="secondary" onClick={() => downloadCodes(step.codes, t('profile.twoFactor.fileHeader', { brand: BRAND_NAME }))}>
              {t('profile.twoFactor.download')}
            </Button>
            <Button type="button" onClick={() => setStep({ kind: 'idle' })}>
              {t('profile.twoFactor.done')}
            </Button>
          </div>
        </div>
      )}

      {step.kind === 'idle' && on && (
        <Button variant="secondary" onClick={() => (setCode(''), setStep({ kind: 'disabling' }))}>
          {t('profile.twoFactor.disable')}
        </Button>
      )}

      {step.kind === 'disabling' && (
        <form className="form" onSubmit={(e) => submit(e, (v) => disable.mutate(v))} noValidate>
          <Input
            label={t('profile.twoFactor.disableCode')}
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            maxLength={32}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="button-row">
            <Button type="submit" variant="danger" busy={disable.isPending} busyText={t('profile.twoFactor.disabling')}>
              {t('profile.twoFactor.disable')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'idle' })}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
