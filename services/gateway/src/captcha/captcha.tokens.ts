/** The resolved CaptchaSettings of this gateway. */
export const CAPTCHA_SETTINGS = Symbol('CAPTCHA_SETTINGS');
