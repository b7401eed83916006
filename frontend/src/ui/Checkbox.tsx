import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: ReactNode;
}

export function Checkbox({ label, error, id, className, ...rest }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? `cb${autoId}`;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={['checkbox', error && 'checkbox--invalid', className].filter(Boolean).join(' ')}>
      <div className="checkbox__row">
        <input {...rest} type="checkbox" id={inputId} className="checkbox__control" aria-invalid={error ? true : undefined} aria-describedby={errorId} />
        <label htmlFor={inputId} className="checkbox__label">
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
