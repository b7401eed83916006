import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_PATH } from '@esim/esim/dist/keepgo/keepgo-api';
import { KeepGoEmulatorFaults } from './keepgo-emulator-faults';
import { KeepGoEmulator } from './keepgo-emulator.service';

const controlSchema = z
  .object({
    mode: z.enum(['ok', 'fail', 'hang', 'throttle']).optional(),
    times: z.number().int().min(1).max(1000).optional(),
    path: z.string().min(1).max(200).optional(),
    applyEffect: z.boolean().optional(),
    /** Sets the emulated account's balance. */
    balanceUsd: z.number().min(0).max(1_000_000).optional(),
    /**
     * Uses data on a line as a phone on it would: the MB come off its active data bundles, oldest
     * first, never below zero (docs/keepgo.md, "The emulator").
     */
    consume: z.object({ iccid: z.string().regex(/^\d{18,22}$/), mb: z.number().int().min(1).max(1_000_000) }).strict().optional(),
    /**
     * What a phone would do to a line: `installed` (KeepGo then reports it Activated) and/or
     * `usedMb` of data spent (the bundles' remaining usage goes down).
     */
    line: z.object({ iccid: z.string().min(1).max(32), installed: z.boolean().optional(), usedMb: z.number().int().min(0).max(1_000_000).optional() }).strict().optional(),
    /** Faults off and request counts back to zero. */
    reset: z.boolean().optional(),
  })
  .strict();

/**
 * Test controls of the KeepGo emulator (not part of KeepGo's API): inject a failure or a hang,
 * set the account balance, use data on a line, read what was asked. Takes the same sandbox credentials as the emulated
 * API.
 */
@Controller(`${KEEPGO_SANDBOX_PATH.slice(1)}/_control`)
export class KeepGoEmulatorControlController {
  constructor(
    private readonly faults: KeepGoEmulatorFaults,
    private readonly emulator: KeepGoEmulator,
  ) {}

  @Get()
  state(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!authorized(req)) return unauthorized(res);
    return { ack: 'success', ...this.faults.state() };
  }

  @Post()
  @HttpCode(200)
  async control(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    if (!authorized(req)) return unauthorized(res);
    const parsed = controlSchema.safeParse(body ?? {});
    if (!parsed.success) {
      res.status(400);
      return { ack: 'error', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') };
    }
    const { mode, times, path, applyEffect, balanceUsd, consume, reset, line } = parsed.data;
    if (line && !(await this.emulator.useLine(line.iccid, { installed: line.installed ?? false, usedMb: line.usedMb ?? 0 }))) {
      res.status(404);
      return { ack: 'error', message: `line ${line.iccid} not found` };
    }
    if (reset) this.faults.reset();
    if (mode) this.faults.set({ mode, times, path, applyEffect });
    if (balanceUsd !== undefined) await this.emulator.setBalance(balanceUsd);
    if (consume) {
      const used = await this.emulator.consume(consume.iccid, consume.mb);
      if (!used) {
        res.status(404);
        return { ack: 'error', message: 'line not found' };
      }
      return { ack: 'success', ...this.faults.state(), line: used };
    }
    return { ack: 'success', ...this.faults.state() };
  }
}

function authorized(req: Request): boolean {
  return req.header('apiKey') === KEEPGO_SANDBOX_API_KEY && req.header('accessToken') === KEEPGO_SANDBOX_ACCESS_TOKEN;
}

function unauthorized(res: Response) {
  res.status(401);
  return { ack: 'error', message: 'Unauthorized: wrong apiKey or accessToken' };
}
