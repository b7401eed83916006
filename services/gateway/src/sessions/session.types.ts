import 'express-session';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    /** Sign-in time (ms); the absolute lifetime counts from here. */
    signedInAt?: number;
    /** Captcha success is good for a short while (product-decisions.md). */
    captchaVerifiedUntil?: number;
  }
}
