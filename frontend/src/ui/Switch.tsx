import { useId, type ReactNode } from 'react';

export interface SwitchProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  busy?: boolean;
  name?: string;
}

/** A native checkbox with role="switch": labelled, Space toggles it, state announced as on/off. */
export function Switch({ label, description, checked, onChange, disabled, busy, name }: SwitchProps) {
  const id = `sw${useId()}`;
  const descId = description ? `${id}-desc` : undefined;
  return (
    <div className="switch">
      <div className="switch__text">
        <label htmlFor={id} className="switch__label">
          {label}
        </label>
        {description && (
          <p id={descId} className="switch__description">
            {description}
          </p>
        )}
      </div>
      <span className="switch__track-wrap">
        <input
          id={id}
          name={name}
          type="checkbox"
          role="switch"
          className="switch__input"
          checked={checked}
          disabled={disabled}
          aria-busy={busy || undefined}
          aria-describedby={descId}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
      </span>
    </div>
  );
}
