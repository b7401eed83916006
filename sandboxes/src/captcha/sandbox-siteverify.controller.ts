import { createHash } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CAPTCHA_SANDBOX_SECRET, SANDBOX_CAPTCHA_SITEVERIFY_PATH } from '@esim/contracts';
import type { SandboxesConfig } from '../config';
import { SANDBOXES_CONFIG } from '../sandboxes.tokens';

/** The token Turnstile's test site keys produce; it always passes with the test secret. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
/** Tokens the sandbox widget mints; each passes once, like a real token. */
export const SANDBOX_TOKEN_PREFIX = 'sandbox-pass';
/** Spent tokens are remembered this long (a real token is dead after 300 s anyway). */
const SPENT_KEPT_S = 24 * 3600;

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
 * response, remoteip; JSON answer with error codes): the gateway's CAPTCHA_VERIFY_URL while it has
 * no CAPTCHA_SECRET. Spent tokens are remembered in the schema sandbox_captcha.
 */
@Controller()
export class SandboxSiteverifyController {
  constructor(
    @Inject(SANDBOXES_CONFIG) private readonly config: SandboxesConfig,
    private readonly db: DataSource,
  ) {}

  @Post(SANDBOX_CAPTCHA_SITEVERIFY_PATH.slice(1))
  @HttpCode(200)
  async siteverify(@Body() body: Record<string, unknown> | undefined): Promise<SiteverifyAnswer> {
    const secret = typeof body?.secret === 'string' ? body.secret : '';
    const token = typeof body?.response === 'string' ? body.response : '';
    if (!secret) return fail('missing-input-secret');
    if (secret !== CAPTCHA_SANDBOX_SECRET) return fail('invalid-input-secret');
    if (!token) return fail('missing-input-response');
    if (token === DUMMY_TOKEN) return this.pass();
    if (!token.startsWith(SANDBOX_TOKEN_PREFIX) || token.length > 2048) return fail('invalid-input-response');
    const digest = createHash('sha256').update(token).digest('hex');
    await this.db.query(`DELETE FROM spent_tokens WHERE spent_at < now() - make_interval(secs => $1)`, [SPENT_KEPT_S]);
    const first: unknown[] = await this.db.query('INSERT INTO spent_tokens (digest) VALUES ($1) ON CONFLICT DO NOTHING RETURNING digest', [digest]);
    return first.length === 1 ? this.pass() : fail('timeout-or-duplicate');
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
