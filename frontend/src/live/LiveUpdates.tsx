import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../auth/AuthProvider';
import { useToast } from '../ui';
import { happeningText } from './happenings';
import { LiveConnection } from './liveConnection';
import { outcomeNotices } from './outcomeNotices';
import { LiveUserWriter } from './liveUserWriter';

/**
 * Keeps the signed-in user's pages current without a reload (docs/live-view.md): one live stream
 * per tab; each message replaces the user (points card, dashboard, gifts) in place, marks the
 * reads it affects stale (/history, My eSIMs), and says what happened in a toast. Rendered only
 * while someone is signed in (App.tsx), and loaded lazily so the landing page does not carry it.
 */
export default function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { t, i18n } = useTranslation();
  const say = useRef({ toast, t, language: i18n.language });
  say.current = { toast, t, language: i18n.language };
  // A new connection after the previous one ended while the user stayed signed in (a new session).
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const writer = new LiveUserWriter(queryClient, ({ happened }) => {
      if (!happened) return;
      // An eSIM outcome the redemption page tells (or is about to) is not told twice.
      const esim = happened.kind === 'esim-ready' || happened.kind === 'esim-topped-up';
      if (esim && !outcomeNotices.liveMayTell()) return;
      const { toast: show, t: translate, language } = say.current;
      show({ title: happeningText(happened, translate, language), variant: happened.kind === 'points-reversed' || happened.kind === 'auto-topup-refused' ? 'default' : 'success' });
    });
    const connection = new LiveConnection({
      onUser: (event) => void writer.write(event),
      onEnd: () => {
        // Signed out here or elsewhere, or expired: ask once who is signed in now. Nobody (401):
        // the pages go to sign-in and this component goes away; still signed in: a new stream.
        void queryClient.refetchQueries({ queryKey: USER_QUERY_KEY }).then(() => {
          if (queryClient.getQueryData<UserView | null>(USER_QUERY_KEY)) setGeneration((g) => g + 1);
        });
      },
      onRetry: (attempt) => {
        // Failing again and again may mean the session is gone without an end event (it expired
        // while this tab had no stream): one check, on the same backoff, then the same as onEnd.
        if (attempt > 0) void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      },
    });
    connection.start();
    const online = () => connection.retryNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      connection.stop();
    };
  }, [userId, generation, queryClient]);

  return null;
}
