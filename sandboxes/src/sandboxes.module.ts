import { DynamicModule, Global, Module } from '@nestjs/common';
import { loggingModule } from '@esim/platform';
import type { SandboxesConfig } from './config';
import { CaptchaSandboxModule } from './captcha/captcha-sandbox.module';
import { HealthController } from './health.controller';
import { KeepGoSandboxModule } from './keepgo/keepgo-sandbox.module';
import { SANDBOXES_CONFIG } from './sandboxes.tokens';
import { StripeSandboxModule } from './stripe/stripe-sandbox.module';
import { WallsSandboxModule } from './walls/walls-sandbox.module';

@Global()
@Module({})
class SandboxesConfigModule {
  static register(config: SandboxesConfig): DynamicModule {
    return { module: SandboxesConfigModule, providers: [{ provide: SANDBOXES_CONFIG, useValue: config }], exports: [SANDBOXES_CONFIG] };
  }
}

/** Every provider emulator, each with its own schema: Stripe, KeepGo, the five offer walls, Turnstile's siteverify. */
@Module({})
export class SandboxesModule {
  static register(config: SandboxesConfig): DynamicModule {
    return {
      module: SandboxesModule,
      controllers: [HealthController],
      imports: [
        loggingModule('sandboxes', config.LOG_LEVEL, { format: config.LOG_FORMAT }),
        SandboxesConfigModule.register(config),
        StripeSandboxModule,
        KeepGoSandboxModule,
        WallsSandboxModule,
        CaptchaSandboxModule,
      ],
    };
  }
}
