import 'express-session';

/**
 * What a signed-in session holds about its user, as SessionSerializer writes it at sign-in (under
 * `session.passport.user`) and hands it back as `req.user` on every later request.
 */
export interface SessionUser {
  id: string;
  /** Sign-in time (ms); the absolute lifetime counts from here. */
  signedInAt: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    /** The signed-in user: SessionUser on every request, the identity user on the request that signed in. */
    interface User {
      id: string;
      /** Only on the request whose password was just checked: the account has two-factor sign-in on. */
      twoFactorRequired?: boolean;
    }
  }
}

declare module 'express-session' {
  interface SessionData {
    passport?: { user?: SessionUser };
    /** Captcha success is good for a short while (docs/earning.md). */
    captchaVerifiedUntil?: number;
    /**
     * Half signed in: the password of this account was right and its second factor is awaited
     * (POST /api/login/2fa) until `until` (ms). Nobody is signed in meanwhile.
     */
    twoFactor?: { userId: string; email: string; until: number };
    /** The challenge of the passkey ceremony under way (one at a time), until `until` (ms). */
    webauthn?: { challenge: string; purpose: 'register' | 'sign_in'; until: number };
    /** The User-Agent that signed in (cut to 512 characters), for the account's session list. */
    userAgent?: string;
    /** When the session last made a request (ms), recorded at most once a minute. */
    lastSeenAt?: number;
  }
}
