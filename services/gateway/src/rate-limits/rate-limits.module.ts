import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { RateLimits } from './rate-limits';

/** The Redis-backed limits of sign-in, sign-up, resets, profile changes and ICCID lookups; imported by the features that count. */
@Module({ imports: [SessionsModule], providers: [RateLimits], exports: [RateLimits] })
export class RateLimitsModule {}
