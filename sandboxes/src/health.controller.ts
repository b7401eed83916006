import { Controller, Get } from '@nestjs/common';

/**
 * For compose's health check and npm start: the process listens only once every emulator's schema
 * is migrated, so answering at all means ready.
 */
@Controller('health')
export class HealthController {
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  ready() {
    return { status: 'ok' };
  }
}
