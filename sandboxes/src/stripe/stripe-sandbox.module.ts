import { Module } from '@nestjs/common';
import type { SandboxesConfig } from '../config';
import { SandboxDataSourceCloser, sandboxDataSource } from '../persistence/sandbox-data-source';
import { SANDBOXES_CONFIG } from '../sandboxes.tokens';
import { StripeSandbox1737000000001 } from './1737000000001-stripe-sandbox';
import { SandboxIdempotencyKeyEntity } from './sandbox-idempotency-key.entity';
import { SandboxStripeObjectEntity } from './sandbox-stripe-object.entity';
import { SandboxWebhookSender } from './sandbox-webhook-sender.service';
import { StripeBrowserController } from './stripe-browser.controller';
import { StripeEmulatorControlController } from './stripe-emulator-control.controller';
import { StripeEmulatorFaults } from './stripe-emulator-faults';
import { StripeEmulatorController } from './stripe-emulator.controller';
import { StripeEmulatorService } from './stripe-emulator.service';
import { StripePixController } from './stripe-pix.controller';
import { STRIPE_SETTINGS, stripeSettings } from './stripe-settings';

/** The Stripe emulator: the secret-key API (/v1), the browser's calls (/sandbox/stripe/v1), the Pix test controls (/sandbox/stripe/pix), signed webhooks; state in sandbox_stripe. */
@Module({
  controllers: [StripeEmulatorController, StripeEmulatorControlController, StripeBrowserController, StripePixController],
  providers: [
    sandboxDataSource({ name: 'stripe', entities: [SandboxStripeObjectEntity, SandboxIdempotencyKeyEntity], migrations: [StripeSandbox1737000000001] }),
    SandboxDataSourceCloser,
    { provide: STRIPE_SETTINGS, inject: [SANDBOXES_CONFIG], useFactory: (c: SandboxesConfig) => stripeSettings(c) },
    StripeEmulatorService,
    StripeEmulatorFaults,
    SandboxWebhookSender,
  ],
})
export class StripeSandboxModule {}
