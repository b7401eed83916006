import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeviceCompatibility } from '@esim/contracts';
import { getQueryFn } from '../../lib/api';
import { AlertIcon, CheckIcon, Select } from '../../ui';
import { readDevice, type ReportedDevice } from './deviceModel';
import { IPHONE_MODELS } from './iphoneModels';

/**
 * The verdict for this phone (lazy chunk of DeviceCheck): the model the browser reports, or on an
 * iPhone the one the user picks, asked of GET /api/devices/compatibility. Works / does not work
 * (then: the MB can go to a family member's eSIM by its ICCID) / unknown (then: how to check).
 */
export default function DeviceVerdict() {
  const { t } = useTranslation();
  const [device, setDevice] = useState<ReportedDevice | null>(null);
  const [iphone, setIphone] = useState('');
  useEffect(() => {
    let live = true;
    void readDevice().then((found) => live && setDevice(found));
    return () => {
      live = false;
    };
  }, []);
  const model = device?.platform === 'iphone' ? iphone : device?.model ?? '';
  const url = `/api/devices/compatibility?${new URLSearchParams({ model })}`;
  const answer = useQuery({
    queryKey: [url],
    queryFn: getQueryFn<DeviceCompatibility>({ on401: 'throw' }),
    enabled: !!model,
    staleTime: Infinity,
  });

  if (!device) return <p className="muted small">{t('compat.checking')}</p>;
  const picker =
    device.platform === 'iphone' ? (
      <Select
        label={t('compat.iphoneSelect')}
        options={[{ value: '', label: t('compat.iphoneChoose') }, ...IPHONE_MODELS.map((name) => ({ value: name, label: name }))]}
        value={iphone}
        onChange={(event) => setIphone(event.currentTarget.value)}
        data-testid="iphone-model"
      />
    ) : null;

  let verdict;
  if (device.platform === 'iphone' && !iphone) verdict = null;
  else if (model && answer.isPending) verdict = <p className="muted small">{t('compat.checking')}</p>;
  else if (answer.data?.compatible === true) {
    verdict = (
      <Verdict tone="yes" title={t('compat.yes', { name: answer.data.name })} text={t('compat.yesText')} />
    );
  } else if (answer.data?.compatible === false) {
    verdict = <Verdict tone="no" title={t('compat.no', { name: answer.data.name })} text={t('compat.noText')} />;
  } else {
    verdict = <Verdict tone="unknown" title={t('compat.unknown')} text={device.platform === 'other' ? `${t('compat.otherDevice')} ${t('compat.unknownText')}` : t('compat.unknownText')} />;
  }
  return (
    <div className="stack stack--sm">
      {picker}
      <div role="status" aria-live="polite" data-testid="device-verdict" data-verdict={answer.data ? String(answer.data.compatible) : undefined}>
        {verdict}
      </div>
    </div>
  );
}

function Verdict({ tone, title, text }: { tone: 'yes' | 'no' | 'unknown'; title: string; text: string }) {
  return (
    <div className={`device-verdict device-verdict--${tone}`}>
      <span className="device-verdict__icon" aria-hidden="true">
        {tone === 'yes' ? <CheckIcon size={20} /> : <AlertIcon size={20} />}
      </span>
      <div>
        <p className="device-verdict__title">{title}</p>
        <p className="small">{text}</p>
      </div>
    </div>
  );
}
