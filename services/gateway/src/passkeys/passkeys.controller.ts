import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { Passkey, passkeyIdParamsSchema, PasskeyRpc, PasskeysResponse, RegisterPasskeyRequest, registerPasskeyRequestSchema } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';
import { keepChallenge, takeChallenge } from './webauthn-challenge';

const refused = () => new AppError('passkey_refused', 'The passkey could not be verified');

/** The account's passkeys on /profile: add one (options, then the browser's answer), list, remove. */
@Controller('api/user/passkeys')
@UseGuards(AuthGuard)
export class PasskeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('options')
  @HttpCode(200)
  async options(@Req() req: Request): Promise<Record<string, unknown>> {
    const { options, challenge } = await this.rpc.call(PasskeyRpc.registrationOptions, {});
    keepChallenge(req, 'register', challenge);
    return options;
  }

  @Post()
  @HttpCode(200)
  register(@Req() req: Request, @Body(new ZodPipe(registerPasskeyRequestSchema)) body: RegisterPasskeyRequest): Promise<Passkey> {
    const expectedChallenge = takeChallenge(req, 'register', refused);
    return this.rpc.call(PasskeyRpc.register, { ...body, expectedChallenge });
  }

  @Get()
  list(): Promise<PasskeysResponse> {
    return this.rpc.call(PasskeyRpc.list, {});
  }

  @Delete(':id')
  async remove(@Param(new ZodPipe(passkeyIdParamsSchema)) { id }: { id: string }): Promise<{ message: string }> {
    await this.rpc.call(PasskeyRpc.remove, { passkeyId: id });
    return { message: 'Passkey removed' };
  }
}
