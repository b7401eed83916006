import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import Stripe from 'stripe';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';

/** The API version the code was written against; pinned so an account upgrade changes nothing here. */
export const STRIPE_API_VERSION = '2025-10-29.clover' as const;

/**
 * The official Stripe SDK, configured once: live Stripe, or the emulator in this service. The
 * emulator's port is only known once this service's HTTP server listens (HEALTH_PORT may be 0),
 * so the client is made on first use.
 */
@Injectable()
export class StripeApiService {
  private client?: Stripe;

  constructor(
    @Inject(STRIPE_SETTINGS) readonly settings: StripeSettings,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  get stripe(): Stripe {
    this.client ??= new Stripe(this.settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      host: this.settings.address.host ?? '127.0.0.1',
      port: this.settings.address.port ?? this.ownPort(),
      protocol: this.settings.address.protocol,
      timeout: this.settings.timeoutMs,
      maxNetworkRetries: this.settings.maxNetworkRetries,
      telemetry: false,
      appInfo: { name: 'dados-gratis-payments' },
    });
    return this.client;
  }

  /** The port this service's HTTP server listens on (where the emulator is mounted). */
  ownPort(): number {
    const address = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo | string | null;
    if (!address || typeof address === 'string') throw new Error('the payments HTTP server is not listening yet');
    return address.port;
  }
}
