import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale } from '@esim/contracts';
import { useLocale } from '../i18n/useLocale';
import { nativeLanguageName } from '../lib/format';
import { GlobeIcon, Select } from '../ui';

interface LanguageSelectProps {
  /**
   * Header variant: a small chip showing the globe and the language code, with the native select
   * laid over it (invisible but focusable), so it fits a phone header in every language.
   */
  compact?: boolean;
  /** Hide the visible label (it stays the accessible name). */
  hideLabel?: boolean;
  id?: string;
}

/** Every interface language from the catalogue, each named in its own language. */
export function LanguageSelect({ compact = false, hideLabel = compact, id }: LanguageSelectProps) {
  const { t } = useTranslation();
  const { locale, setLocale } = useLocale();
  const autoId = useId();
  const selectId = id ?? `lang${autoId}`;
  const options = useMemo(() => LOCALES.map((code) => ({ value: code, label: nativeLanguageName(code), lang: code })), []);
  const onChange = (next: string) => {
    if (isLocale(next)) void setLocale(next);
  };

  if (compact) {
    return (
      <div className="lang-chip">
        <label htmlFor={selectId} className="visually-hidden">
          {t('common.language')}
        </label>
        <span className="lang-chip__face" aria-hidden="true">
          <GlobeIcon size={18} />
          <span className="lang-chip__code">{locale.toUpperCase()}</span>
          <span className="lang-chip__chevron" />
        </span>
        <select id={selectId} className="lang-chip__select" value={locale} onChange={(event) => onChange(event.currentTarget.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value} lang={o.lang}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    );
  }

  return (
    <Select
      id={selectId}
      label={t('common.language')}
      hideLabel={hideLabel}
      icon={<GlobeIcon size={18} />}
      options={options}
      value={locale}
      className="language-select"
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
