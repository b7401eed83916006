import { Module } from '@nestjs/common';
import { SandboxWallsController } from './sandbox-walls.controller';

/**
 * The sandbox walls that emulate providers. Provider postbacks (`/webhooks/*`) never reach Nest:
 * webhooks-proxy.ts streams them to the ingestion service from the edge middleware.
 */
@Module({ controllers: [SandboxWallsController] })
export class OfferwallsModule {}
