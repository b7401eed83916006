import { AppError } from '@esim/platform';
import { QrCodes } from './qr-codes.service';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('QR codes of activation codes', () => {
  const qr = new QrCodes();
  const lpa = 'LPA:1$smdp.example.com$04386-AGYFT-A74Y8-3F815';

  it('renders a PNG data URL and PNG bytes; different codes give different images', async () => {
    const url = await qr.toDataUrl(lpa);
    expect(url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // 320 px wide and high (IHDR width and height).
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([320, 320]);
    expect((await qr.toPng(lpa)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(await qr.toDataUrl(`${lpa}0`)).not.toBe(url);
  });

  it('refuses empty or oversized input', async () => {
    await expect(qr.toDataUrl('')).rejects.toBeInstanceOf(AppError);
    await expect(qr.toPng('x'.repeat(1025))).rejects.toThrow(/1-1024 characters/);
  });
});
