import { updateProfileRequestSchema, updateSettingsRequestSchema } from './account.http';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('profile form', () => {
  it('reads blank password fields as "not changing the password"', () => {
    expect(
      updateProfileRequestSchema.parse({
        username: 'Ana',
        email: 'ANA@Example.test ',
        currentPassword: '',
        newPassword: '',
        confirmPassword: '',
      }),
    ).toEqual({ username: 'Ana', email: 'ana@example.test' });
  });

  it("uses the product's messages", () => {
    expect(firstMessage(updateProfileRequestSchema.safeParse({ newPassword: 'short' }))).toBe(
      'Password must be at least 8 characters long',
    );
    expect(firstMessage(updateProfileRequestSchema.safeParse({ newPassword: 'long enough 1', confirmPassword: 'long enough 2' }))).toBe(
      'New passwords do not match.',
    );
    expect(firstMessage(updateProfileRequestSchema.safeParse({ phone: 'call me maybe' }))).toBe('Please enter a valid phone number');
    expect(firstMessage(updateProfileRequestSchema.safeParse({ email: 'nope' }))).toBe('Please enter a valid email address');
  });

  it('keeps a plausible phone, and a blank one means "remove it"', () => {
    expect(updateProfileRequestSchema.parse({ phone: ' +351 (912) 345-678 ' }).phone).toBe('+351 (912) 345-678');
    expect(updateProfileRequestSchema.parse({ phone: '' }).phone).toBeNull();
  });

  it('drops fields nobody may set through the profile or settings', () => {
    const extras = { isAdmin: true, points: 1e6, id: '00000000-0000-4000-8000-000000000000', emailVerified: false };
    expect(updateProfileRequestSchema.parse({ username: 'Ana', ...extras })).toEqual({ username: 'Ana' });
    expect(updateSettingsRequestSchema.parse({ dataAlerts: false, ...extras })).toEqual({ dataAlerts: false });
  });
});
