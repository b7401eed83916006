import { createHash } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppError, CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { InjectRedis } from '../sessions/redis.provider';
import { CAPTCHA_SETTINGS } from './captcha.tokens';
import { CaptchaSettings, SANDBOX_SECRET } from './captcha-settings';

/** The token Turnstile's test site keys produce; it always passes with the test secret. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
/** Tokens the sandbox widget mints; each passes once, within 300 s, like a real token. */
export const SANDBOX_TOKEN_PREFIX = 'sandbox-pass';
const TOKEN_LIFETIME_S = 300;

interface SiteverifyAnswer {
  success: boolean;
  'error-codes': string[];
  challenge_ts?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
}

/**
 * A local stand-in for Turnstile's siteverify, speaking its protocol (form-encoded secret,
 * response, remoteip; JSON answer with error codes), served only while no CAPTCHA_SECRET is set.
 */
@Controller('sandbox/captcha')
export class SandboxSiteverifyController {
  constructor(
    @Inject(CAPTCHA_SETTINGS) private readonly settings: CaptchaSettings,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  @Post('siteverify')
  @HttpCode(200)
  async siteverify(@Body() body: Record<string, unknown> | undefined): Promise<SiteverifyAnswer> {
    if (!this.settings.sandbox) throw new AppError('not_found', 'Not found');
    const secret = typeof body?.secret === 'string' ? body.secret : '';
    const token = typeof body?.response === 'string' ? body.response : '';
    if (!secret) return fail('missing-input-secret');
    if (secret !== SANDBOX_SECRET) return fail('invalid-input-secret');
    if (!token) return fail('missing-input-response');
    if (token === DUMMY_TOKEN) return this.pass();
    if (!token.startsWith(SANDBOX_TOKEN_PREFIX) || token.length > 2048) return fail('invalid-input-response');
    const digest = createHash('sha256').update(token).digest('hex');
    const first = await this.redis.set(`captcha-sandbox:${digest}`, '1', 'EX', TOKEN_LIFETIME_S, 'NX');
    return first === 'OK' ? this.pass() : fail('timeout-or-duplicate');
  }

  private pass(): SiteverifyAnswer {
    return {
      success: true,
      'error-codes': [],
      challenge_ts: new Date().toISOString(),
      hostname: new URL(this.config.PUBLIC_URL).hostname,
      action: '',
      cdata: '',
    };
  }
}

const fail = (code: string): SiteverifyAnswer => ({ success: false, 'error-codes': [code] });
