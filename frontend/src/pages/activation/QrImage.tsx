import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../lib/api';
import { Spinner } from '../../ui';
import { isImageDataUrl } from './activationSource';
import './qr.css';

/**
 * The QR code of the LPA code: the redemption's own PNG when it came with one, else drawn by
 * `POST /api/generate-qr` (an image blob). A failure is only logged (spec section 8): the
 * activation code below it is the fallback. In its frame, with its own styles (the setup page and
 * /success's purchase view both show it).
 */
export function QrImage({ lpaCode, qrCode }: { lpaCode: string; qrCode: string | null }) {
  const { t } = useTranslation();
  const stored = isImageDataUrl(qrCode) ? qrCode : null;
  const generated = useQuery<Blob>({
    queryKey: ['/api/generate-qr', lpaCode],
    queryFn: async ({ signal }) => (await apiRequest('POST', '/api/generate-qr', { data: lpaCode }, signal)).blob(),
    enabled: !stored,
    staleTime: Infinity,
  });
  const [blobUrl, setBlobUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!generated.data) return;
    const url = URL.createObjectURL(generated.data);
    setBlobUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [generated.data]);

  useEffect(() => {
    if (generated.error) console.error('QR code generation failed', generated.error);
  }, [generated.error]);

  const src = stored ?? blobUrl;
  return (
    <div className="qr-frame">
      {src ? (
        <img className="qr-image" src={src} alt={t('activation.qr.alt')} width={240} height={240} data-testid="activation-qr" />
      ) : generated.isError ? (
        <p className="qr-fallback" data-testid="activation-qr-unavailable">
          {t('activation.qr.unavailable')}
        </p>
      ) : (
        <div className="qr-placeholder">
          <Spinner label={t('activation.qr.loading')} />
        </div>
      )}
    </div>
  );
}
