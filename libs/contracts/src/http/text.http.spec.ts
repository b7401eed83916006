import { z } from 'zod';
import { updateProfileRequestSchema, updateSettingsRequestSchema, confirmEmailChangeRequestSchema } from './account.http';
import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  NAME_CHARACTERS_MESSAGE,
  registerRequestSchema,
  resendVerificationRequestSchema,
  resetPasswordRequestSchema,
  verifyEmailRequestSchema,
} from './auth.http';
import { IdentityAdminRpc } from '../identity/identity-admin.rpc';
import { adminUsersQuerySchema } from './admin-users.http';
import { verifyCaptchaRequestSchema } from './captcha.http';
import { sandboxCompleteFormSchema, sandboxReverseFormSchema, sandboxWallQuerySchema } from './earning.http';
import { sandboxConfirmRequestSchema } from './purchases.http';
import { UNSTORABLE_TEXT_MESSAGE } from './text.http';

/**
 * Every request body of the account routes, and the other client inputs with free text (admin search,
 * the sandbox walls and card form), with a valid value in each of its string fields.
 */
const BODIES: Array<[string, z.ZodType, Record<string, unknown>]> = [
  [
    'register',
    registerRequestSchema,
    { name: 'Ana', email: 'ana@example.test', password: 'long enough pw', acceptTerms: true, acceptPrivacy: true },
  ],
  ['verify-email', verifyEmailRequestSchema, { name: 'Ana', email: 'ana@example.test', password: 'long enough pw', code: '123456' }],
  ['resend-verification', resendVerificationRequestSchema, { email: 'ana@example.test' }],
  ['login', loginRequestSchema, { username: 'ana@example.test', password: 'whatever' }],
  ['forgot-password', forgotPasswordRequestSchema, { email: 'ana@example.test' }],
  ['reset-password', resetPasswordRequestSchema, { token: 'x'.repeat(43), newPassword: 'long enough pw' }],
  [
    'profile',
    updateProfileRequestSchema,
    {
      username: 'Ana',
      email: 'ana@example.test',
      phone: '+351 912 345 678',
      currentPassword: 'old password',
      newPassword: 'long enough pw',
      confirmPassword: 'long enough pw',
    },
  ],
  ['email/verify', confirmEmailChangeRequestSchema, { code: '123456' }],
  ['verify-captcha', verifyCaptchaRequestSchema, { token: 'sandbox-pass-1' }],
  ['admin/users', adminUsersQuerySchema, { q: 'ana' }],
  // Its other fields are enums and numbers.
  ['identity.admin-search-users', IdentityAdminRpc.searchUsers.request.pick({ q: true }), { q: 'ana' }],
  ['identity.admin-search-user-ids', IdentityAdminRpc.searchUserIds.request, { q: 'ana' }],
  ['sandbox wall', sandboxWallQuerySchema, { uid: 'wall-uid-1' }],
  ['sandbox wall complete', sandboxCompleteFormSchema, { uid: 'wall-uid-1', offerId: 'sbx-survey' }],
  ['sandbox wall reverse', sandboxReverseFormSchema, { uid: 'wall-uid-1', transactionId: 'sbx-1' }],
  [
    'sandbox stripe confirm',
    sandboxConfirmRequestSchema,
    { client_secret: 'pi_1_secret_2', key: 'pk_test_1', payment_method: 'pm_card_visa', return_url: 'http://localhost:3000/success' },
  ],
];

const stringFields = BODIES.flatMap(([route, schema, body]) =>
  Object.entries(body)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([field, value]) => [route, field, schema, body, value] as const),
);

describe('characters that cannot be stored', () => {
  it('covers every string field of every account request body', () => {
    for (const [, schema, body] of BODIES) expect(schema.safeParse(body).success).toBe(true);
    expect(stringFields.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(stringFields.map(([route, field, schema, body, value]) => [`${route} ${field}`, field, schema, body, value] as const))(
    '%s',
    (_name, field, schema, body, value) => {
      const withValue = (v: string) => {
        // The profile form's confirmation must equal the new password to reach the character check.
        const extra = field === 'newPassword' ? { confirmPassword: v } : field === 'confirmPassword' ? { newPassword: v } : {};
        return schema.safeParse({ ...body, ...extra, [field]: v });
      };

      it.each([
        ['a NUL byte', `${value.slice(0, 1)}\u0000${value.slice(1)}`],
        ['a lone high surrogate', `${value.slice(0, 1)}\ud83d${value.slice(1)}`],
        ['a lone low surrogate', `${value}\ude00`],
      ])('refuses %s with a message, not a crash', (_what, bad) => {
        const result = withValue(bad);
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toContain(UNSTORABLE_TEXT_MESSAGE);
      });
    },
  );

  it('keeps ordinary text from every script, and emoji made of surrogate pairs', () => {
    const name = 'Ana 😀 José Ñandú 山田 أحمد';
    expect(registerRequestSchema.parse({ ...BODIES[0][2], name }).name).toBe(name);
    expect(loginRequestSchema.parse({ username: 'ana@example.test', password: 'pässwörd 😀' }).password).toBe('pässwörd 😀');
  });

  it('refuses line breaks and other control characters in names', () => {
    for (const name of ['Ana\r\nBcc: victim@example.test', 'Ana\nB', 'Ana\rB', 'Ana\tB', 'Ana\u0085B']) {
      for (const schema of [registerRequestSchema, verifyEmailRequestSchema]) {
        const result = schema.safeParse({ ...BODIES[1][2], ...BODIES[0][2], name });
        expect(result.error?.issues[0]?.message).toBe(NAME_CHARACTERS_MESSAGE);
      }
      expect(updateProfileRequestSchema.safeParse({ username: name }).error?.issues[0]?.message).toBe(NAME_CHARACTERS_MESSAGE);
    }
  });

  it('leaves the settings body without free text', () => {
    expect(updateSettingsRequestSchema.safeParse({ locale: 'pt\u0000' }).success).toBe(false);
  });
});
