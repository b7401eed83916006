import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SANDBOX_STRIPE_BASE_PATH } from '@esim/contracts';
import { renderPixPage } from './pix-page';
import { PixQrImages } from './pix-qr-images';
import { StripeEmulatorService } from './stripe-emulator.service';

/** The page runs no script and is never framed; its forms post back here. */
const PAGE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const NOTICES = { pay: 'Paid: the emulator sent payment_intent.succeeded.', expire: 'Expired: the emulator sent payment_intent.payment_failed.' } as const;

/**
 * The Stripe emulator's Pix pages and controls, at PUBLIC_URL/sandbox/stripe/pix/{intent} (the
 * gateway proxies them here): the hosted instructions page, the QR image, and the test-mode
 * controls that settle a code (`pay`) or let it lapse (`expire`). Each needs the intent's client
 * secret, as the publishable-key calls do. A form post is answered with the page again; a JSON
 * call (the SPA's sandbox buttons, tests) with the intent as a publishable key sees it.
 */
@Controller('sandbox/stripe/pix')
export class StripePixController {
  private readonly qr = new PixQrImages();

  constructor(private readonly emulator: StripeEmulatorService) {}

  @Get(':id')
  async page(@Param('id') id: string, @Query('client_secret') secret: unknown, @Query('notice') notice: unknown, @Res() res: Response): Promise<void> {
    const found = await this.emulator.pixData(id, secret);
    if (!found) {
      res.status(404).type('text/plain').send('No such PaymentIntent (or a wrong client_secret).');
      return;
    }
    const shown = notice === 'pay' || notice === 'expire' ? NOTICES[notice] : undefined;
    res.set({ 'Content-Security-Policy': PAGE_CSP, 'Cache-Control': 'no-store' }).type('html').send(renderPixPage(found.intent, String(secret), shown));
  }

  @Get(':id/qr.png')
  async png(@Param('id') id: string, @Query('client_secret') secret: unknown, @Res() res: Response): Promise<void> {
    const found = await this.emulator.pixData(id, secret);
    if (!found?.data) {
      res.status(404).type('text/plain').send('No Pix code.');
      return;
    }
    res.set('Cache-Control', 'no-store').type('png').send(await this.qr.png(found.data));
  }

  @Get(':id/qr.svg')
  async svg(@Param('id') id: string, @Query('client_secret') secret: unknown, @Res() res: Response): Promise<void> {
    const found = await this.emulator.pixData(id, secret);
    if (!found?.data) {
      res.status(404).type('text/plain').send('No Pix code.');
      return;
    }
    res.set('Cache-Control', 'no-store').type('image/svg+xml').send(await this.qr.svg(found.data));
  }

  @Post(':id/pay')
  pay(@Param('id') id: string, @Body() body: unknown, @Headers('content-type') type: string | undefined, @Res() res: Response): Promise<void> {
    return this.settle(id, body, type, 'pay', res);
  }

  @Post(':id/expire')
  expire(@Param('id') id: string, @Body() body: unknown, @Headers('content-type') type: string | undefined, @Res() res: Response): Promise<void> {
    return this.settle(id, body, type, 'expire', res);
  }

  private async settle(id: string, body: unknown, contentType: string | undefined, outcome: 'pay' | 'expire', res: Response): Promise<void> {
    const secret = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).client_secret : undefined;
    const answer = await this.emulator.settlePix(id, secret, outcome);
    if ((contentType ?? '').includes('application/x-www-form-urlencoded') && answer.httpStatus === 200) {
      const back = `${SANDBOX_STRIPE_BASE_PATH}/pix/${encodeURIComponent(id)}?client_secret=${encodeURIComponent(String(secret))}&notice=${outcome}`;
      res.redirect(303, back);
      return;
    }
    res.status(answer.httpStatus).set(answer.headers).set('Cache-Control', 'no-store').json(answer.body);
  }
}
