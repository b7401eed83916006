import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import argon2 from 'argon2';
import { CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';

/** argon2id hashing with the configured cost; hashes made with weaker settings report `needsRehash`. */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly params: { type: typeof argon2.argon2id; memoryCost: number; timeCost: number; parallelism: number };
  /** Verified against when the email is unknown, so that answer takes as long as a wrong password. */
  private dummyHash = '';

  constructor(@Inject(CONFIG) config: IdentityConfig) {
    this.params = {
      type: argon2.argon2id,
      memoryCost: config.ARGON2_MEMORY_KIB,
      timeCost: config.ARGON2_TIME_COST,
      parallelism: config.ARGON2_PARALLELISM,
    };
  }

  async onModuleInit(): Promise<void> {
    this.dummyHash = await this.hash('not a real password: timing equaliser');
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.params);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false; // a malformed stored hash never signs anyone in
    }
  }

  /** Spends the same work as a real check and always fails. */
  async verifyNobody(password: string): Promise<false> {
    await this.verify(this.dummyHash, password);
    return false;
  }

  needsRehash(hash: string): boolean {
    return !hash.startsWith('$argon2id$') || argon2.needsRehash(hash, this.params);
  }
}
