import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
  /** Language of the label, for options named in their own language. */
  lang?: string;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  label: ReactNode;
  options: readonly SelectOption[];
  hint?: ReactNode;
  error?: ReactNode;
  /** Visually hide the label (it stays the accessible name). */
  hideLabel?: boolean;
  compact?: boolean;
  icon?: ReactNode;
}

/** A native select: the best keyboard, screen-reader and phone behaviour there is. */
export function Select({ label, options, hint, error, hideLabel, compact, icon, id, className, ...rest }: SelectProps) {
  const autoId = useId();
  const selectId = id ?? `sel${autoId}`;
  const hintId = hint ? `${selectId}-hint` : undefined;
  const errorId = error ? `${selectId}-error` : undefined;
  return (
    <div className={['field', compact && 'field--compact', error && 'field--invalid', className].filter(Boolean).join(' ')}>
      <label htmlFor={selectId} className={hideLabel ? 'visually-hidden' : 'field__label'}>
        {label}
      </label>
      <div className={['select', icon && 'select--icon'].filter(Boolean).join(' ')}>
        {icon && <span className="select__icon">{icon}</span>}
        <select
          {...rest}
          id={selectId}
          className="field__control select__control"
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.disabled} lang={o.lang}>
              {o.label}
            </option>
          ))}
        </select>
        <span className="select__chevron" aria-hidden="true" />
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
