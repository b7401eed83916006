import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RedeemRequest, RedemptionResponse } from '@esim/contracts';
import { USER_QUERY_KEY } from '../../auth/AuthProvider';
import { CAPTCHA_MESSAGE_KEYS, captchaMessageOf } from '../../components/captcha/captchaMessages';
import { HttpError } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { outcomeNotices } from '../../live/outcomeNotices';
import { useToast } from '../../ui';
import { STATEMENT_QUERY_KEY } from '../statement/statement';
import { activationDataOf, saveActivationData } from './activationData';
import type { SuccessLocationState } from './giftedSummary';
import { GIFTS_QUERY_KEY } from './gifts';
import { IdempotencyKeys, isDefiniteAnswer } from './idempotency';
import { postRedemption } from './redeemApi';
import { STANDING_QUERY_KEY } from './RedemptionStandingCard';
import { ACTIVATION_REDIRECT_MS, REDEMPTION_ERROR_TOAST_MS, routeRedemption, type RedeemCall } from './redemptionFlow';
import { redemptionErrorToast } from './redemptionErrors';

interface Attempt {
  call: RedeemCall;
  body: RedeemRequest;
  key: string;
  /** For the 'Insufficient points' message when the server gives no numbers. */
  pointsCost: number;
  balance: number;
}

/**
 * 'redirecting': an eSIM is ready and its setup page opens shortly; 'processing': the saga is still
 * running; 'review': the risk rules hold it for an admin (docs/earning.md, "Risk rules").
 */
export type RedemptionOutcome = 'idle' | 'redirecting' | 'processing' | 'review';

/**
 * The last answer, for a caller that shows it where the person tapped (the line card's one-tap
 * top-up) instead of moving to /success or the dashboard.
 */
export type InPlaceResult =
  | { kind: 'added'; amountGB: number }
  | { kind: 'review' }
  | { kind: 'processing' }
  | { kind: 'manual'; message: string }
  | { kind: 'failed'; title: string; description: string };

export interface RedemptionOptions {
  /** Stay on the page: the answer goes to `result` rather than to /success or the dashboard. */
  inPlace?: boolean;
}

/**
 * The claim page's submit: the captcha dialog first, then the redemption call with one
 * Idempotency-Key per submit, then the answer handled by status (spec section 4) or the failure
 * shown as spec section 8's toast. A captcha refusal (the 5-minute mark lapsed) reopens the dialog
 * and retries the same submit with the same key.
 */
export function useRedemption({ inPlace = false }: RedemptionOptions = {}) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [keys] = useState(() => new IdempotencyKeys());
  const attempt = useRef<Attempt | null>(null);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [outcome, setOutcome] = useState<RedemptionOutcome>('idle');
  const [result, setResult] = useState<InPlaceResult | null>(null);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const n = useCallback((value: number) => formatNumber(value, i18n.language), [i18n.language]);

  const showFailure = (error: unknown, a: Attempt) => {
    const message = redemptionErrorToast(error, { call: a.call, t, formatNumber: n, needed: a.pointsCost, current: a.balance });
    setResult({ kind: 'failed', ...message });
    toast({ ...message, variant: 'destructive', duration: REDEMPTION_ERROR_TOAST_MS });
  };

  const mutation = useMutation<RedemptionResponse, Error, Attempt>({
    mutationFn: (a) => postRedemption(a.call, a.body, a.key),
    // From the submit on, the page tells the eSIM outcome; the live stream's notice would repeat it.
    onMutate: () => outcomeNotices.begin(),
    onSuccess: (result, a) => {
      keys.settle();
      // The balance (and, with it, the dashboard and /history) changed: read them again.
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: STATEMENT_QUERY_KEY });
      // A claimed gift leaves the dashboard's gift card and shows as claimed in /history.
      void queryClient.invalidateQueries({ queryKey: GIFTS_QUERY_KEY });
      const toSuccess = () => {
        const state: SuccessLocationState = { redemption: result, iccid: a.body.iccid, purchaseType: a.body.purchaseType };
        navigate('/success', { state });
      };
      switch (routeRedemption(result.status)) {
        case 'activation':
          saveActivationData(activationDataOf(result));
          outcomeNotices.end(true);
          toast({ title: t('redeem.result.readyTitle'), description: t('redeem.result.readyText'), variant: 'success' });
          setOutcome('redirecting');
          redirectTimer.current = window.setTimeout(() => navigate('/esim-activation'), ACTIVATION_REDIRECT_MS);
          return;
        case 'manual':
          outcomeNotices.end(true);
          toast({ title: t('redeem.result.manualTitle'), description: result.message, duration: REDEMPTION_ERROR_TOAST_MS });
          if (inPlace) setResult({ kind: 'manual', message: result.message });
          else toSuccess();
          return;
        case 'processing':
          // The live stream says it when the data lands.
          outcomeNotices.end(false);
          setOutcome('processing');
          setResult({ kind: 'processing' });
          return;
        case 'review':
          // The points are set aside and the page says it waits for an admin. The delivery, once
          // approved, is not told here: the live stream's notice says it when the data lands.
          outcomeNotices.end(false);
          void queryClient.invalidateQueries({ queryKey: STANDING_QUERY_KEY });
          toast({
            title: t('redemptionRisk.reviewPendingTitle'),
            description: t('redemptionRisk.reviewPendingText'),
            duration: REDEMPTION_ERROR_TOAST_MS,
          });
          setResult({ kind: 'review' });
          if (!inPlace) setOutcome('review');
          return;
        case 'failed':
          outcomeNotices.end(false);
          showFailure(new Error(result.message), a);
          return;
        default:
          outcomeNotices.end(true);
          toast({
            title: t(a.call === 'gift-data' ? 'appCopy.claimedTitle' : 'redeem.result.redeemedTitle'),
            description: t('appCopy.onItsWay', { count: result.amountGB, gb: n(result.amountGB) }),
            variant: 'success',
          });
          if (inPlace) setResult({ kind: 'added', amountGB: result.amountGB });
          else toSuccess();
      }
    },
    onError: (error, a) => {
      outcomeNotices.end(false);
      // Paused by the risk rules: the standing card shows why and how to appeal.
      void queryClient.invalidateQueries({ queryKey: STANDING_QUERY_KEY });
      if (isDefiniteAnswer(error)) keys.settle();
      const captcha = error instanceof HttpError && error.status === 403 ? captchaMessageOf(error) : null;
      if (captcha) {
        toast({ title: t(CAPTCHA_MESSAGE_KEYS[captcha]), variant: 'destructive' });
        setCaptchaOpen(true);
        return;
      }
      showFailure(error, a);
    },
  });

  /** A valid form was submitted: make (or reuse) its key, then ask for the captcha. */
  const submit = (call: RedeemCall, body: RedeemRequest, costs: { pointsCost: number; balance: number }) => {
    attempt.current = { call, body, key: keys.forSubmit(body), ...costs };
    setResult(null);
    setCaptchaOpen(true);
  };

  const onCaptchaVerified = () => {
    if (attempt.current) mutation.mutate(attempt.current);
  };

  return {
    submit,
    /** The CaptchaDialog's props: it opens on submit and sends the redemption once verified. */
    captcha: { open: captchaOpen, onClose: () => setCaptchaOpen(false), onVerified: onCaptchaVerified },
    pending: mutation.isPending,
    outcome,
    result,
  };
}
