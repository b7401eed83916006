import argon2 from 'argon2';
import { loadConfig } from '@esim/platform';
import { identityConfigSchema } from '../config';
import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(loadConfig(identityConfigSchema, {}));
  beforeAll(() => hasher.onModuleInit());

  it('hashes with argon2id at the configured floor (m=19456, t=2, p=1) and a random salt', async () => {
    const [a, b] = await Promise.all([hasher.hash('correct horse'), hasher.hash('correct horse')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await hasher.verify(a, 'correct horse')).toBe(true);
    expect(await hasher.verify(a, 'correct horsE')).toBe(false);
  });

  it('reports weaker or other-variant hashes as needing a rehash', async () => {
    expect(hasher.needsRehash(await hasher.hash('pw'))).toBe(false);
    expect(hasher.needsRehash(await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }))).toBe(
      true,
    );
    expect(hasher.needsRehash(await argon2.hash('pw', { type: argon2.argon2i, memoryCost: 19456, timeCost: 2, parallelism: 1 }))).toBe(
      true,
    );
  });

  it('never accepts a malformed stored hash, and the unknown-user check always fails', async () => {
    expect(await hasher.verify('not-a-hash', 'pw')).toBe(false);
    expect(await hasher.verifyNobody('not a real password: timing equaliser')).toBe(false);
  });

  it('refuses configuration below the floor', () => {
    expect(() => loadConfig(identityConfigSchema, { ARGON2_MEMORY_KIB: '4096' })).toThrow(/ARGON2_MEMORY_KIB/);
    expect(() => loadConfig(identityConfigSchema, { ARGON2_TIME_COST: '1' })).toThrow(/ARGON2_TIME_COST/);
    expect(() => loadConfig(identityConfigSchema, { NODE_ENV: 'production' })).toThrow(/VERIFICATION_CODE_SECRET/);
  });
});
