import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { USER_QUERY_KEY } from '../auth/AuthProvider';
import { VisitorOnly } from '../auth/guards';
import { rememberReferralCode } from '../lib/deviceId';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { AuthLayout } from './auth/AuthLayout';
import { ForgotPasswordForm } from './auth/ForgotPasswordForm';
import { LoginForm } from './auth/LoginForm';
import { SignupForm, type SignupValues } from './auth/SignupForm';
import { VerifyEmailForm } from './auth/VerifyEmailForm';

type View = 'login' | 'signup' | 'verify' | 'forgot';

const EMPTY_SIGNUP: SignupValues = { name: '', email: '', password: '', acceptTerms: false, acceptPrivacy: false };

/** /auth: login (default), signup (?signup=true), email verification and forgot password. */
export default function AuthPage() {
  return (
    <VisitorOnly waitForSession>
      <AuthScreens />
    </VisitorOnly>
  );
}

function AuthScreens() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const urlView: View = params.get('signup') === 'true' ? 'signup' : 'login';
  // A friend's link (`?signup=true&ref=<code>`): the code travels to the verification step.
  const ref = params.get('ref');
  useEffect(() => rememberReferralCode(ref), [ref]);
  const [step, setStep] = useState<'verify' | 'forgot' | null>(null);
  const [signup, setSignup] = useState<SignupValues>(EMPTY_SIGNUP);
  const [verifyEmail, setVerifyEmail] = useState('');
  const [forgotEmail, setForgotEmail] = useState('');
  const view: View = step ?? urlView;
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // When the view changes, move focus to its heading so screen readers announce the new step.
  const firstView = useRef(true);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    document.querySelector<HTMLElement>('#main h1')?.focus();
  }, [view]);

  const titles: Record<View, string> = {
    login: t('auth.login.title'),
    signup: t('auth.signup.title'),
    verify: t('auth.verify.title'),
    forgot: t('auth.forgot.title'),
  };
  useDocumentTitle(titles[view]);

  const show = (next: 'login' | 'signup') => {
    setStep(null);
    setParams(next === 'signup' ? { signup: 'true' } : { login: 'true' }, { replace: true });
    window.scrollTo(0, 0);
  };

  return (
    <AuthLayout>
      {view === 'login' && (
        <LoginForm
          onSignup={() => show('signup')}
          onForgot={(email) => {
            setForgotEmail(email);
            setStep('forgot');
          }}
        />
      )}
      {view === 'signup' && (
        <SignupForm
          values={signup}
          onChange={setSignup}
          onLogin={() => show('login')}
          onRegistered={(result) => {
            if (result?.requiresVerification) {
              setVerifyEmail(result.email || signup.email.trim());
              setStep('verify');
            } else {
              void queryClient.refetchQueries({ queryKey: USER_QUERY_KEY }).then(() => navigate('/dashboard', { replace: true }));
            }
          }}
        />
      )}
      {view === 'verify' && <VerifyEmailForm email={verifyEmail} signup={signup} onBack={() => setStep(null)} />}
      {view === 'forgot' && <ForgotPasswordForm initialEmail={forgotEmail} onBack={() => show('login')} />}
    </AuthLayout>
  );
}
