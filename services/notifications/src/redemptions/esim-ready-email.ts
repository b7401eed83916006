import QRCode from 'qrcode';
import type { RecipientRpc, RpcResponse } from '@esim/contracts';
import type { EmailJob } from '../templates/emails';

type Recipient = RpcResponse<typeof RecipientRpc.getRecipient>;

/**
 * "Your eSIM is ready" in the recipient's language, with the QR code of `lpaCode` inline (PNG) and
 * a link to the wallet: for a new eSIM issued (esim) or delivered by an operator (payments).
 */
export async function esimReadyEmail(to: Recipient, esim: { amountGB: number; lpaCode: string }, publicUrl: string): Promise<EmailJob> {
  const png = await QRCode.toBuffer(esim.lpaCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return {
    kind: 'esimReady',
    to: to.email,
    locale: to.locale,
    data: { name: to.name, amountGB: esim.amountGB, lpaCode: esim.lpaCode, qrPngBase64: png.toString('base64'), appUrl: new URL('/esims', publicUrl).toString() },
  };
}
