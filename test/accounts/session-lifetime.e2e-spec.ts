import { setTimeout as sleep } from 'node:timers/promises';
import { signUp } from '../support/accounts';
import { AccountsSystem, isSignedIn, login, startAccountsSystem } from './accounts-system';

const IDLE_SECONDS = 2;
const ABSOLUTE_SECONDS = 5;

/** Security check 5: the server ends idle sessions and sessions past their absolute lifetime. */
describe('session lifetime', () => {
  let sys: AccountsSystem;

  beforeAll(async () => {
    sys = await startAccountsSystem({
      gatewayEnv: { SESSION_IDLE_SECONDS: String(IDLE_SECONDS), SESSION_ABSOLUTE_SECONDS: String(ABSOLUTE_SECONDS) },
    });
  });
  afterAll(() => sys?.stop());

  it('ends a session left idle longer than the idle timeout', async () => {
    const browser = sys.client();
    await signUp(browser, sys.mail);
    expect(await isSignedIn(browser)).toBe(true);
    await sleep((IDLE_SECONDS + 1) * 1000);
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('ends a busy session at its absolute lifetime', async () => {
    const user = await signUp(sys.client(), sys.mail);
    const browser = sys.client();
    expect((await login(browser, user.email, user.password)).status).toBe(200);
    const signedInAt = Date.now();
    // Never idle for long, so only the absolute lifetime can end it.
    while (Date.now() - signedInAt < (ABSOLUTE_SECONDS - 1) * 1000) {
      expect(await isSignedIn(browser)).toBe(true);
      await sleep(700);
    }
    await sleep(1500);
    expect(await isSignedIn(browser)).toBe(false);
  });
});
