import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';

/**
 * QR codes of eSIM activation codes (`LPA:1$…`): the provider returns only the text. Medium error
 * correction and a quiet zone, which phone cameras read best. Inputs are bounded by the contracts
 * (generateQrRequestSchema) before they get here.
 */
@Injectable()
export class QrCodes {
  private static readonly options = { errorCorrectionLevel: 'M', margin: 2, width: 320 } as const;

  /** A `data:image/png;base64,…` URL, for JSON answers. */
  dataUrl(text: string): Promise<string> {
    return QRCode.toDataURL(text, { ...QrCodes.options, type: 'image/png' });
  }

  png(text: string): Promise<Buffer> {
    return QRCode.toBuffer(text, { ...QrCodes.options, type: 'png' });
  }
}
