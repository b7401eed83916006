import QRCode from 'qrcode';
import { PixQrImages } from './pix-qr-images';

describe("the emulator's Pix QR images", () => {
  afterEach(() => jest.restoreAllMocks());

  it('renders a code once for any number of requests, even concurrent ones', async () => {
    const render = jest.spyOn(QRCode, 'toBuffer');
    const images = new PixQrImages();
    const all = await Promise.all(Array.from({ length: 20 }, () => images.png('000201-code-a')));
    await images.png('000201-code-a');
    expect(render).toHaveBeenCalledTimes(1);
    expect(new Set(all).size).toBe(1);
    expect(all[0].subarray(1, 4).toString()).toBe('PNG');
    await images.png('000201-code-b');
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed render', async () => {
    const images = new PixQrImages();
    jest.spyOn(QRCode, 'toString').mockRejectedValueOnce(new Error('boom') as never);
    await expect(images.svg('000201-code-c')).rejects.toThrow('boom');
    await expect(images.svg('000201-code-c')).resolves.toContain('<svg');
  });
});
