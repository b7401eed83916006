import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { RateLimits } from './rate-limits';

/** The Redis-backed limits of sign-in, sign-up, resets and profile changes; imported by the features that count. */
@Module({ imports: [SessionsModule], providers: [RateLimits], exports: [RateLimits] })
export class RateLimitsModule {}
