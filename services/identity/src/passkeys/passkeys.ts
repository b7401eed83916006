import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WebAuthnCredential } from '@simplewebauthn/server';
import type { Passkey } from '@esim/contracts';
import { AppError } from '@esim/platform';

/** One answer for every way a passkey ceremony fails, so the answer tells nothing about accounts. */
export const passkeyRefused = (at: 'adding' | 'sign-in') =>
  at === 'adding'
    ? new AppError('passkey_refused', 'The passkey could not be verified')
    : new AppError('passkey_sign_in_refused', 'The passkey could not be verified');

interface PasskeyRow {
  id: string;
  user_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface StoredPasskey extends WebAuthnCredential {
  userId: string;
  transports: string[];
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

/** The passkeys table (migration 1734400000000). */
@Injectable()
export class Passkeys {
  constructor(private readonly db: DataSource) {}

  async forUser(userId: string): Promise<(Passkey & { transports: string[] })[]> {
    const rows: PasskeyRow[] = await this.db.query('SELECT * FROM passkeys WHERE user_id = $1 ORDER BY created_at', [userId]);
    return rows.map((r) => ({ ...toPasskey(r), transports: r.transports }));
  }

  async find(id: string): Promise<StoredPasskey | null> {
    const [row]: PasskeyRow[] = await this.db.query('SELECT * FROM passkeys WHERE id = $1', [id]);
    if (!row) return null;
    return { id: row.id, userId: row.user_id, publicKey: new Uint8Array(row.public_key), counter: Number(row.counter), transports: row.transports };
  }

  async insert(manager: EntityManager, p: { userId: string; credential: WebAuthnCredential; name: string }): Promise<Passkey> {
    const [row]: PasskeyRow[] = await manager.query(
      'INSERT INTO passkeys (id, user_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [p.credential.id, p.userId, Buffer.from(p.credential.publicKey), p.credential.counter, p.credential.transports ?? [], p.name],
    );
    return toPasskey(row);
  }

  /**
   * Records a sign-in: the new signature counter, only if it still is the one verified against
   * (two answers racing with one counter value: the later one loses).
   */
  async used(id: string, verifiedCounter: number, newCounter: number): Promise<boolean> {
    const [, count] = (await this.db.query('UPDATE passkeys SET counter = $3, last_used_at = now() WHERE id = $1 AND counter = $2', [
      id,
      verifiedCounter,
      newCounter,
    ])) as [unknown, number];
    return count === 1;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const [, count] = (await this.db.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [id, userId])) as [unknown, number];
    return count === 1;
  }

  /** A name the person can tell apart until they choose one. */
  defaultName(attachment: string | undefined): string {
    return attachment === 'cross-platform' ? 'Security key' : 'Passkey';
  }
}
