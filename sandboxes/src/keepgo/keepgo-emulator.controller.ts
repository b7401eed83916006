import { Body, Controller, Get, Logger, OnModuleDestroy, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_API_PATH } from '@esim/esim/dist/keepgo/keepgo-api';
import { Fault, KeepGoEmulatorFaults } from './keepgo-emulator-faults';
import { EmulatorAnswer, KeepGoEmulator } from './keepgo-emulator.service';

/** A hung request is dropped after this long even if its caller never gives up. */
const MAX_HANG_MS = 5 * 60_000;

/**
 * The KeepGo reseller API v2, emulated: same paths, `apiKey`/`accessToken` headers, JSON bodies
 * and `ack`. Served under /keepgo/api/v2 by the sandboxes process: the esim service's base URL
 * (KEEPGO_BASE_URL) when it has no KeepGo credentials. Never behind the public edge.
 */
@Controller(KEEPGO_SANDBOX_API_PATH.slice(1))
export class KeepGoEmulatorController implements OnModuleDestroy {
  private readonly log = new Logger('KeepGoEmulator');
  private readonly hanging = new Set<Response>();

  constructor(
    private readonly emulator: KeepGoEmulator,
    private readonly faults: KeepGoEmulatorFaults,
  ) {}

  @Get('lines')
  lines(@Req() req: Request, @Res() res: Response, @Query('page') page?: string, @Query('per_page') perPage?: string) {
    return this.serve(req, res, 'GET /lines', () => this.emulator.lines(Number(page ?? 1), Number(perPage ?? 25)));
  }

  @Get('line/:iccid/get_details')
  details(@Req() req: Request, @Res() res: Response, @Param('iccid') iccid: string) {
    return this.serve(req, res, 'GET /line/:iccid/get_details', () => this.emulator.details(iccid));
  }

  @Get('line/:iccid/available_refills')
  availableRefills(@Req() req: Request, @Res() res: Response, @Param('iccid') iccid: string) {
    return this.serve(req, res, 'GET /line/:iccid/available_refills', () => this.emulator.availableRefills(iccid));
  }

  @Post('line/create')
  create(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown> | undefined) {
    return this.serve(req, res, 'POST /line/create', () => this.emulator.createLine(body ?? {}, idempotencyKey(req)));
  }

  @Post('line/:iccid/refill')
  refill(@Req() req: Request, @Res() res: Response, @Param('iccid') iccid: string, @Body() body: Record<string, unknown> | undefined) {
    return this.serve(req, res, 'POST /line/:iccid/refill', () => this.emulator.refill(iccid, body ?? {}, idempotencyKey(req)));
  }

  @Put('line/:iccid/update_notes')
  updateNotes(@Req() req: Request, @Res() res: Response, @Param('iccid') iccid: string, @Body() body: Record<string, unknown> | undefined) {
    return this.serve(req, res, 'PUT /line/:iccid/update_notes', () => this.emulator.updateNotes(iccid, body?.notes));
  }

  @Put('line/:iccid/deactivation_date')
  deactivate(@Req() req: Request, @Res() res: Response, @Param('iccid') iccid: string, @Body() body: Record<string, unknown> | undefined) {
    return this.serve(req, res, 'PUT /line/:iccid/deactivation_date', () =>
      this.emulator.setDeactivationDate(iccid, body?.deactivation_date),
    );
  }

  @Get('account_balance')
  accountBalance(@Req() req: Request, @Res() res: Response) {
    return this.serve(req, res, 'GET /account_balance', () => this.emulator.accountBalance());
  }

  @Get('bundles')
  bundles(@Req() req: Request, @Res() res: Response) {
    return this.serve(req, res, 'GET /bundles', async () => this.emulator.bundles());
  }

  @Get('bundles/:id')
  bundle(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    return this.serve(req, res, 'GET /bundles/:id', async () => this.emulator.bundle(Number(id)));
  }

  /** Callers that never gave up must not keep the server from closing. */
  onModuleDestroy(): void {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  private async serve(req: Request, res: Response, route: string, work: () => Promise<EmulatorAnswer>): Promise<void> {
    const fault = this.faults.take(route, `${req.method} ${req.path.slice(KEEPGO_SANDBOX_API_PATH.length)}`);
    if (!authorized(req)) {
      res.status(401).json({ ack: 'error', message: 'Unauthorized: wrong apiKey or accessToken' });
      return;
    }
    // A throttled request is turned away before any work, whatever applyEffect says.
    if (fault && (!fault.applyEffect || fault.mode === 'throttle')) return this.inflict(fault, res, route);
    let answer: EmulatorAnswer;
    try {
      answer = await work();
    } catch (err) {
      this.log.error(`${route} failed: ${(err as Error).stack ?? err}`);
      answer = { status: 500, body: { ack: 'error', message: 'Internal server error' } };
    }
    if (fault) return this.inflict(fault, res, route);
    res.status(answer.status).json(answer.body);
  }

  private inflict(fault: Fault, res: Response, route: string): void {
    this.log.warn(`injected fault on ${route}: ${fault.mode}${fault.applyEffect ? ' after doing the work' : ''}`);
    if (fault.mode === 'throttle') {
      res.status(429).json({ ack: 'error', message: 'Too many requests' });
      return;
    }
    if (fault.mode === 'fail') {
      res.status(503).json({ ack: 'error', message: 'Service temporarily unavailable' });
      return;
    }
    this.hanging.add(res);
    const timer = setTimeout(() => res.destroy(), MAX_HANG_MS);
    timer.unref();
    res.on('close', () => {
      clearTimeout(timer);
      this.hanging.delete(res);
    });
  }
}

function authorized(req: Request): boolean {
  return req.header('apiKey') === KEEPGO_SANDBOX_API_KEY && req.header('accessToken') === KEEPGO_SANDBOX_ACCESS_TOKEN;
}

function idempotencyKey(req: Request): string | null {
  return req.header('Idempotency-Key') ?? null;
}
