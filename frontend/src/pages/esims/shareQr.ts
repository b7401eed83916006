/**
 * Share and Save of a wallet QR code (spec, /esims). Share hands the PNG to the phone's share
 * sheet (Web Share with files, else the activation code as text); Save downloads it. Both work
 * offline: the image is the data URL the wallet already holds.
 */

export type ShareResult = 'shared' | 'cancelled' | 'failed';

type ShareApi = { share?: (data: ShareData) => Promise<void>; canShare?: (data: ShareData) => boolean };

export function dataUrlToFile(dataUrl: string, fileName: string): File | null {
  const match = /^data:([\w/+.-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) return null;
  const binary = atob(match[2].replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], fileName, { type: match[1] });
}

/** 'cancelled' when the person closed the share sheet (not an error); 'failed' when sharing is impossible. */
export async function shareQrCode(
  qr: { dataUrl: string; lpaCode: string | null; fileName: string; title: string },
  nav: ShareApi | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): Promise<ShareResult> {
  if (!nav?.share) return 'failed';
  const file = dataUrlToFile(qr.dataUrl, qr.fileName);
  const withFile: ShareData | null = file ? { files: [file], title: qr.title, text: qr.lpaCode ?? undefined } : null;
  const data: ShareData | null =
    withFile && nav.canShare?.(withFile) ? withFile : qr.lpaCode ? { title: qr.title, text: qr.lpaCode } : null;
  if (!data) return 'failed';
  try {
    await nav.share(data);
    return 'shared';
  } catch (err) {
    return err instanceof Error && err.name === 'AbortError' ? 'cancelled' : 'failed';
  }
}

/** Saves the image under `fileName` (a download link clicked). */
export function saveDataUrl(dataUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
