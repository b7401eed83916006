import QRCode from 'qrcode';

/** Codes whose images are kept: far more than the codes a sandbox shows at once. */
const KEPT = 500;

/**
 * The QR images of Pix codes, rendered once per code and kind. Rendering a PNG is synchronous CPU
 * work (tens of milliseconds, far more on a loaded machine); rendered again for every GET, a
 * burst of requests for the same image (a page reloaded by many browsers, a load test) held the
 * emulators' process for seconds, and everything behind it waited on it (test/purchases/
 * sandbox-proxy.e2e-spec.ts). A code's image never changes, so the first render (even one still
 * under way) answers every later request. Bounded by insertion order: the oldest code goes first.
 */
export class PixQrImages {
  private readonly images = new Map<string, Promise<Buffer | string>>();

  png(data: string): Promise<Buffer> {
    return this.kept(`png:${data}`, () => QRCode.toBuffer(data, { errorCorrectionLevel: 'M', margin: 2, width: 320 })) as Promise<Buffer>;
  }

  svg(data: string): Promise<string> {
    return this.kept(`svg:${data}`, () => QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })) as Promise<string>;
  }

  private kept(key: string, render: () => Promise<Buffer | string>): Promise<Buffer | string> {
    const found = this.images.get(key);
    if (found) return found;
    const rendering = render();
    // A failed render is not kept: the next request tries again.
    rendering.catch(() => this.images.delete(key));
    this.images.set(key, rendering);
    if (this.images.size > KEPT) this.images.delete(this.images.keys().next().value!);
    return rendering;
  }
}
