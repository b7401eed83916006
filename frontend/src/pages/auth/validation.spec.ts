import { PASSWORD_MAX_LENGTH as CONTRACT_MAX, PASSWORD_MIN_LENGTH as CONTRACT_MIN } from '@esim/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, isValidEmail, isValidPassword } from './validation';

describe('frontend password and email checks', () => {
  it('mirrors the password bounds of the contracts', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(CONTRACT_MIN);
    expect(PASSWORD_MAX_LENGTH).toBe(CONTRACT_MAX);
  });

  it('accepts passwords within the bounds only', () => {
    expect(isValidPassword('a'.repeat(PASSWORD_MIN_LENGTH - 1))).toBe(false);
    expect(isValidPassword('a'.repeat(PASSWORD_MIN_LENGTH))).toBe(true);
    expect(isValidPassword('a'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe(false);
  });

  it('checks the shape of an email address', () => {
    expect(isValidEmail(' ana@example.com ')).toBe(true);
    expect(isValidEmail('ana@example')).toBe(false);
    expect(isValidEmail('not an email')).toBe(false);
  });
});
