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
    }
  }
}

declare module 'express-session' {
  interface SessionData {
    passport?: { user?: SessionUser };
    /** Captcha success is good for a short while (docs/earning.md). */
    captchaVerifiedUntil?: number;
  }
}
