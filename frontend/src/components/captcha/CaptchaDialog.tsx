import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { VerifyCaptchaResponse } from '@esim/contracts';
import { apiJson } from '../../lib/api';
import { useErrorText } from '../../lib/useErrorText';
import { AlertIcon, Button, CheckIcon, Dialog } from '../../ui';
import { CAPTCHA_MESSAGE_KEYS, captchaMessageOf, type CaptchaMessage } from './captchaMessages';
import { CaptchaWidget } from './CaptchaWidget';

export interface CaptchaDialogProps {
  open: boolean;
  onClose: () => void;
  /** The server accepted the token: the session may start missions and redeem for 5 minutes. */
  onVerified: (result: VerifyCaptchaResponse) => void;
  title?: string;
  description?: string;
  /** Label of the confirm button; "Continue" by default. */
  continueLabel?: string;
}

type Status = { kind: 'success' } | { kind: 'error'; text: string } | null;

/**
 * The security check of spec section 4: Continue is disabled until the widget gives a token; a
 * token shows a success message; an error or expiry clears the token and says so; the server's
 * verification (`POST /api/verify-captcha`) closes the dialog.
 */
export function CaptchaDialog({ open, onClose, onVerified, title, description, continueLabel }: CaptchaDialogProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [token, setToken] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [resetSignal, setResetSignal] = useState(0);

  // Every opening starts from a clean widget.
  useEffect(() => {
    if (!open) return;
    setToken(null);
    setStatus(null);
  }, [open]);

  const lose = (message: CaptchaMessage | null, fallback?: string) => {
    setToken(null);
    setStatus(message ? { kind: 'error', text: t(CAPTCHA_MESSAGE_KEYS[message]) } : fallback ? { kind: 'error', text: fallback } : null);
  };

  const verify = useMutation<VerifyCaptchaResponse, Error, string>({
    mutationFn: (value) => apiJson<VerifyCaptchaResponse>('POST', '/api/verify-captcha', { token: value }),
    onSuccess: (result) => {
      setToken(null);
      setStatus(null);
      onVerified(result);
      onClose();
    },
    onError: (error) => {
      // A token is single use: whatever went wrong, the widget needs a new one.
      lose(captchaMessageOf(error), errorText(error));
      setResetSignal((n) => n + 1);
    },
  });

  const submit = () => {
    if (!token) {
      setStatus({ kind: 'error', text: t(CAPTCHA_MESSAGE_KEYS.required) });
      return;
    }
    verify.mutate(token);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title ?? t('captcha.title')}
      description={description ?? t('captcha.description')}
      closeLabel={t('common.close')}
      preventClose={verify.isPending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={verify.isPending}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} disabled={!token} busy={verify.isPending} busyText={t('captcha.verifying')}>
            {continueLabel ?? t('captcha.continue')}
          </Button>
        </>
      }
    >
      <div className="captcha-dialog__body" data-testid="captcha-dialog">
        <CaptchaWidget
          resetSignal={resetSignal}
          onToken={(value) => {
            setToken(value);
            setStatus({ kind: 'success' });
          }}
          onLost={(why) => (why === 'cleared' ? lose(null) : lose(why))}
        />
        <div role="status" aria-live="polite" className="captcha-dialog__status">
          {status?.kind === 'success' && (
            <p className="captcha-message captcha-message--success">
              <CheckIcon size={18} />
              <span>{t('captcha.success')}</span>
            </p>
          )}
        </div>
        <div role="alert" className="captcha-dialog__status">
          {status?.kind === 'error' && (
            <p className="captcha-message captcha-message--error">
              <AlertIcon size={18} />
              <span>{status.text}</span>
            </p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
