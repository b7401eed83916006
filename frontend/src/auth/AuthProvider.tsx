import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  LoginRequest,
  RegisterRequest,
  RegisterResponse,
  ResendVerificationRequest,
  TwoFactorCodeRequest,
  TwoFactorRequiredResponse,
  UserView,
  VerifyEmailRequest,
} from '@esim/contracts';
import { apiJson, apiRequest, getQueryFn } from '../lib/api';
import { forgetReferralCode } from '../lib/deviceId';
import { useErrorText } from '../lib/useErrorText';
import { useToast } from '../ui';

export const USER_QUERY_KEY = ['/api/user'] as const;

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthContextValue {
  user: UserView | null;
  status: AuthStatus;
  isLoading: boolean;
  error: Error | null;
  // Request and answer shapes are the gateway's contracts (type-only imports: no code in the bundle).
  /** Answers twoFactorRequired (nobody signed in yet) when the account has two-factor sign-in on. */
  loginMutation: UseMutationResult<UserView | TwoFactorRequiredResponse, Error, LoginRequest>;
  /** The second step of such a sign-in: a code from the app or a recovery code. */
  twoFactorMutation: UseMutationResult<UserView, Error, TwoFactorCodeRequest>;
  /** Signs in with a passkey this device holds (both factors at once). */
  passkeyMutation: UseMutationResult<UserView, Error, void>;
  registerMutation: UseMutationResult<RegisterResponse, Error, RegisterRequest>;
  verifyMutation: UseMutationResult<{ user: UserView }, Error, VerifyEmailRequest>;
  resendMutation: UseMutationResult<unknown, Error, ResendVerificationRequest>;
  logoutMutation: UseMutationResult<void, Error, void>;
  /**
   * Ends the session on this client (after logout or account deletion): the user becomes null and
   * protected pages send the visitor to `redirectTo` instead of /auth.
   */
  endSession: (redirectTo?: string) => void;
  /**
   * Called as a request that ends the session (logout, account deletion) starts, and again with
   * the answer. That request also ends the live stream, whose end event can reach this tab first:
   * the check it makes then finds nobody signed in before `endSession` runs, and protected pages
   * must already send the visitor where that request will. A failed request puts back /auth.
   */
  endingSession: (state: 'started' | 'failed', redirectTo?: string) => void;
  /** Where protected pages send a signed-out visitor. */
  signedOutRedirect: string;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const { t } = useTranslation();
  const errorText = useErrorText();

  const userQuery = useQuery<UserView | null, Error>({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<UserView>({ on401: 'returnNull' }),
    // main.tsx asks for the session while the locale chunk downloads; by the time this mounts that
    // answer is in, and with the default staleTime of 0 mounting would ask a second time. Later
    // changes arrive explicitly (login/logout set it, pages invalidate it, a 401 clears it).
    refetchOnMount: false,
  });

  const [signedOutRedirect, setSignedOutRedirect] = useState('/auth');

  const endSession = useCallback(
    (redirectTo = '/') => {
      setSignedOutRedirect(redirectTo);
      queryClient.setQueryData(USER_QUERY_KEY, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
    },
    [queryClient],
  );

  const endingSession = useCallback((state: 'started' | 'failed', redirectTo = '/') => {
    setSignedOutRedirect(state === 'started' ? redirectTo : '/auth');
  }, []);

  const startSession = useCallback(
    (user: UserView) => {
      setSignedOutRedirect('/auth');
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
    [queryClient],
  );

  const failed = (titleKey: string) => (error: Error) =>
    toast({ title: t(titleKey), description: errorText(error), variant: 'destructive' });

  const loginMutation = useMutation<UserView | TwoFactorRequiredResponse, Error, LoginRequest>({
    mutationFn: (input) => apiJson<UserView | TwoFactorRequiredResponse>('POST', '/api/login', input),
    onSuccess: (answer) => {
      if (!('twoFactorRequired' in answer)) startSession(answer);
    },
    onError: failed('auth.toast.loginFailed'),
  });

  const twoFactorMutation = useMutation<UserView, Error, TwoFactorCodeRequest>({
    mutationFn: (input) => apiJson<UserView>('POST', '/api/login/2fa', input),
    onSuccess: (user) => startSession(user),
    onError: failed('auth.twoFactor.failed'),
  });

  const passkeyMutation = useMutation<UserView, Error, void>({
    mutationFn: async () => {
      // Loaded on demand: most visits never use a passkey, and the first page stays small.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const optionsJSON = await apiJson<Parameters<typeof startAuthentication>[0]['optionsJSON']>('POST', '/api/login/passkey/options');
      const response = await startAuthentication({ optionsJSON });
      return apiJson<UserView>('POST', '/api/login/passkey', { response });
    },
    onSuccess: (user) => startSession(user),
    onError: failed('auth.passkey.failed'),
  });

  const registerMutation = useMutation<RegisterResponse, Error, RegisterRequest>({
    mutationFn: (input) => apiJson<RegisterResponse>('POST', '/api/register', input),
    onError: failed('auth.toast.registrationFailed'),
  });

  const verifyMutation = useMutation<{ user: UserView }, Error, VerifyEmailRequest>({
    mutationFn: (input) => apiJson<{ user: UserView }>('POST', '/api/verify-email', input),
    onSuccess: ({ user }) => {
      forgetReferralCode();
      startSession(user);
      toast({ title: t('auth.toast.verifiedTitle'), description: t('auth.toast.verifiedDescription'), variant: 'success' });
      // /auth is for visitors only: with the user set, it sends them on to /dashboard.
    },
    onError: failed('auth.toast.verificationFailed'),
  });

  const resendMutation = useMutation<unknown, Error, ResendVerificationRequest>({
    mutationFn: (input) => apiJson<unknown>('POST', '/api/resend-verification', input),
    onSuccess: () => toast({ title: t('auth.toast.codeSentTitle'), description: t('auth.toast.codeSentDescription'), variant: 'success' }),
    onError: failed('auth.toast.resendFailed'),
  });

  const logoutMutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest('POST', '/api/logout');
    },
    onMutate: () => endingSession('started', '/'),
    onSuccess: () => endSession('/'),
    onError: (error) => {
      endingSession('failed');
      failed('auth.toast.logoutFailed')(error);
    },
  });

  const user = userQuery.data ?? null;
  const status: AuthStatus = userQuery.isPending ? 'loading' : user ? 'signedIn' : 'signedOut';

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      status,
      isLoading: status === 'loading',
      error: userQuery.error,
      loginMutation,
      twoFactorMutation,
      passkeyMutation,
      registerMutation,
      verifyMutation,
      resendMutation,
      logoutMutation,
      endSession,
      endingSession,
      signedOutRedirect,
    }),
    [user, status, userQuery.error, loginMutation, twoFactorMutation, passkeyMutation, registerMutation, verifyMutation, resendMutation, logoutMutation, endSession, endingSession, signedOutRedirect],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
