import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { generateQrRequestSchema } from '@esim/contracts';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';
import { QrCodes } from './qr-codes';

/** `POST /api/generate-qr { data }`: the QR code of an activation code, as a PNG image. */
@Controller('api')
@UseGuards(AuthGuard)
export class GenerateQrController {
  constructor(private readonly qr: QrCodes) {}

  @Post('generate-qr')
  @HttpCode(200)
  async generate(@Body(new ZodPipe(generateQrRequestSchema)) { data }: z.infer<typeof generateQrRequestSchema>, @Res() res: Response): Promise<void> {
    const png = await this.qr.png(data);
    res.type('image/png').setHeader('Content-Length', String(png.length));
    res.end(png);
  }
}
