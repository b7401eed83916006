/**
 * Every declared reason a person can meet has a text in every interface language; every other
 * reason is declared not user-facing and gets the generic text (or, on the admin console, the
 * server's words). A reason declared in libs/contracts and left out here fails this suite.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_REASONS, ERRORS, LOCALES, type ErrorReason } from '@esim/contracts';
import { HttpError, NetworkError } from './api';
import { errorMessage, GENERIC, REASON_MESSAGES } from './errorMessages';

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = path.join(__dirname, '..', 'i18n', 'locales');
const lookup = (tree: Tree, key: string): string | undefined => {
  const value = key.split('.').reduce<string | Tree | undefined>((node, part) => (node && typeof node === 'object' ? node[part] : undefined), tree);
  return typeof value === 'string' ? value : undefined;
};
const locales = Object.fromEntries(LOCALES.map((l) => [l, JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${l}.json`), 'utf8')) as Tree]));

/** Details as each typed reason's declaration has them, so the text's placeholders are filled. */
const SAMPLE_DETAILS: Partial<Record<ErrorReason, unknown>> = {
  insufficient_points: { requested: 3000, available: 2999 },
  no_covering_gift: { planTier: 'pro', largestGiftGB: 1 },
  provider_refused: { redemptionId: 'r1', providerReason: 'refused', pointsUsed: 0 },
  invalid_request: [{ path: 'email', message: 'Invalid email' }],
  payment_not_succeeded: { status: 'requires_payment_method' },
};
const answer = (reason: ErrorReason, message = 'The server words it in English.') =>
  new HttpError(ERRORS[reason].status, 'Error', JSON.stringify({ message, code: ERRORS[reason].code, reason, details: SAMPLE_DETAILS[reason] }));
const format = (n: number) => String(n);

const userFacing = ERROR_REASONS.filter((r) => ERRORS[r].audience === 'user');
const notUserFacing = ERROR_REASONS.filter((r) => ERRORS[r].audience !== 'user');

describe('the SPA words every declared error reason', () => {
  it('has a text for exactly the user-facing reasons', () => {
    expect(Object.keys(REASON_MESSAGES).sort()).toEqual([...userFacing].sort());
  });

  it.each(userFacing)('%s: a text in every locale, its placeholders filled', (reason) => {
    const message = errorMessage(answer(reason), format);
    expect('key' in message).toBe(true);
    if (!('key' in message)) return;
    const placeholders = new Set(Object.keys(message.values ?? {}));
    const problems = LOCALES.flatMap((locale) => {
      const text = lookup(locales[locale], message.key);
      if (text === undefined) return [`${locale}: no ${message.key}`];
      const missing = [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).filter((p) => !placeholders.has(p));
      return missing.length ? [`${locale}: ${message.key} needs ${missing.join(', ')}`] : [];
    });
    expect({ reason, problems }).toEqual({ reason, problems: [] });
  });

  it.each(notUserFacing)('%s: not user-facing, so the generic text or (operator) the server words', (reason) => {
    const message = errorMessage(answer(reason), format);
    if (ERRORS[reason].audience === 'operator') expect(message).toEqual({ text: 'The server words it in English.' });
    else expect(message).toBe(GENERIC);
  });

  it('never reads the English message of a user-facing reason', () => {
    const english = errorMessage(answer('invalid_credentials', 'Invalid email or password'), format);
    const other = errorMessage(answer('invalid_credentials', 'anything else'), format);
    expect(english).toEqual({ key: 'errors.reasons.invalid_credentials' });
    expect(other).toEqual(english);
  });

  it('words a provider refusal by what the provider said', () => {
    const refused = (providerReason: string) =>
      new HttpError(422, 'Error', JSON.stringify({ message: 'x', code: 'unprocessable', reason: 'provider_refused', details: { redemptionId: 'r', providerReason, pointsUsed: 0 } }));
    expect(errorMessage(refused('line_not_found'), format)).toEqual({ key: 'redeem.errors.iccidNotFound' });
    expect(errorMessage(refused('no_suitable_offer'), format)).toEqual({ key: 'redeem.errors.noPlans' });
    expect(errorMessage(refused('refused'), format)).toEqual({ key: 'errors.reasons.provider_refused' });
  });

  it('falls back to the generic text for an undeclared reason or a proxy page, and names a network failure', () => {
    expect(errorMessage(new HttpError(409, 'Conflict', JSON.stringify({ message: 'x', code: 'conflict', reason: 'not_declared' })), format)).toBe(GENERIC);
    expect(errorMessage(new HttpError(502, 'Bad Gateway', '<html>bad gateway</html>'), format)).toBe(GENERIC);
    expect(errorMessage(new NetworkError(), format)).toEqual({ key: 'errors.network' });
  });
});
