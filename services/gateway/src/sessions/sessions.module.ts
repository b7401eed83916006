import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import RedisStore from 'connect-redis';
import { CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { AccountDeletedEventHandler } from './account-deleted.event-handler';
import { ActiveSessionsController } from './active-sessions.controller';
import { AuthGuard } from './auth.guard';
import { PasswordChangedEventHandler } from './password-changed.event-handler';
import { REDIS, createRedis } from './redis.provider';
import { createSessionStore } from './session.middleware';
import { SessionSerializer } from './session.serializer';
import { SessionService } from './session.service';

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Sessions in Redis (the store, passport's serializer, the per-user index) and the gateway's Redis
 * connection; imported by every feature that signs in or out, or reads Redis.
 */
@Module({
  controllers: [ActiveSessionsController],
  providers: [
    { provide: REDIS, inject: [CONFIG], useFactory: (c: GatewayConfig) => createRedis(c) },
    { provide: RedisStore, inject: [REDIS], useFactory: createSessionStore },
    SessionService,
    SessionSerializer,
    AuthGuard,
    RedisCloser,
    PasswordChangedEventHandler,
    AccountDeletedEventHandler,
  ],
  exports: [REDIS, RedisStore, SessionService, AuthGuard],
})
export class SessionsModule {}
