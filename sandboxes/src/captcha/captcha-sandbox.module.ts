import { Module } from '@nestjs/common';
import { SandboxDataSourceCloser, sandboxDataSource } from '../persistence/sandbox-data-source';
import { CaptchaSandbox1737000000002 } from './1737000000002-captcha-sandbox';
import { SandboxSiteverifyController } from './sandbox-siteverify.controller';

/** Turnstile's siteverify, emulated (POST /captcha/siteverify); spent tokens in sandbox_captcha. */
@Module({
  controllers: [SandboxSiteverifyController],
  providers: [sandboxDataSource({ name: 'captcha', entities: [], migrations: [CaptchaSandbox1737000000002] }), SandboxDataSourceCloser],
})
export class CaptchaSandboxModule {}
