import type { ExecutionContext } from '@nestjs/common';
import { AppError } from '@esim/platform';
import { CaptchaGuard } from './captcha.guard';

const contextWith = (session: object | undefined) =>
  ({ switchToHttp: () => ({ getRequest: () => ({ session }) }) }) as unknown as ExecutionContext;

describe('CaptchaGuard', () => {
  const guard = new CaptchaGuard();

  it('lets a session through while its captcha mark is live', () => {
    expect(guard.canActivate(contextWith({ captchaVerifiedUntil: Date.now() + 60_000 }))).toBe(true);
  });

  it.each([
    ['no session', undefined],
    ['no mark', {}],
    ['an expired mark', { captchaVerifiedUntil: Date.now() - 1 }],
  ])('answers 403 with the spec message for %s', (_, session) => {
    const error = (() => {
      try {
        guard.canActivate(contextWith(session));
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'forbidden',
      message: 'Please complete the captcha verification first',
      reason: 'captcha_required',
    });
  });
});
