import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { AppError } from '@esim/platform';

/** LPA codes are under 200 characters; anything much longer is not an activation code. */
export const QR_MAX_INPUT = 1024;

/**
 * QR codes of eSIM activation codes (`LPA:1$…`), rendered here because KeepGo returns only the
 * LPA string. Medium error correction and a quiet zone, as phone cameras read them best.
 */
@Injectable()
export class QrCodes {
  private static readonly options = { errorCorrectionLevel: 'M', margin: 2, width: 320 } as const;

  /** A `data:image/png;base64,…` URL, for JSON answers and emails. */
  async toDataUrl(text: string): Promise<string> {
    return QRCode.toDataURL(checked(text), { ...QrCodes.options, type: 'image/png' });
  }

  /** The PNG bytes, for an image answer. */
  async toPng(text: string): Promise<Buffer> {
    return QRCode.toBuffer(checked(text), { ...QrCodes.options, type: 'png' });
  }
}

function checked(text: string): string {
  if (typeof text !== 'string' || text.length === 0 || text.length > QR_MAX_INPUT) {
    throw new AppError('qr_input_invalid', `QR code input must be 1-${QR_MAX_INPUT} characters`);
  }
  return text;
}
