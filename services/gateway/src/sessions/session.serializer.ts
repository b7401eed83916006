import { Injectable } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import { z } from 'zod';
import type { SessionUser } from './session.types';

const sessionUserSchema = z.object({ id: z.string().uuid(), signedInAt: z.number().int().positive() });

/**
 * What passport keeps in a session: the user's id and the sign-in time, nothing else (the rest is
 * asked of the owning services when needed, so it is never stale). Anything else found in a
 * session reads as signed out.
 */
@Injectable()
export class SessionSerializer extends PassportSerializer {
  serializeUser(user: Express.User, done: (err: Error | null, payload?: SessionUser) => void): void {
    done(null, { id: user.id, signedInAt: Date.now() });
  }

  deserializeUser(payload: unknown, done: (err: Error | null, user?: SessionUser | false) => void): void {
    const parsed = sessionUserSchema.safeParse(payload);
    done(null, parsed.success ? parsed.data : false);
  }
}
