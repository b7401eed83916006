interface ProgressBarProps {
  /** 0..100; values outside are clamped. */
  value: number;
  label: string;
  /** Visible text of the value, also used as aria-valuetext. */
  valueText?: string;
  /** Turns gold when the bar is full. */
  goldWhenFull?: boolean;
  /**
   * 0..100 more, drawn striped after the value: what is on its way but not counted yet (held
   * points). Not part of aria-valuenow; say it in `valueText`.
   */
  pending?: number;
}

export function ProgressBar({ value, label, valueText, goldWhenFull = true, pending = 0 }: ProgressBarProps) {
  const pct = Math.max(0, Math.min(100, Number.isFinite(value) ? value : 0));
  const pendingPct = Math.max(0, Math.min(100 - pct, Number.isFinite(pending) ? pending : 0));
  const full = pct >= 100;
  return (
    <div
      className={['progress', full && goldWhenFull && 'progress--gold'].filter(Boolean).join(' ')}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      aria-valuetext={valueText}
      data-full={full || undefined}
    >
      <div className="progress__fill" style={{ inlineSize: `${pct}%` }} />
      {pendingPct > 0 && <div className="progress__pending" data-testid="progress-pending" style={{ inlineSize: `${pendingPct}%` }} />}
    </div>
  );
}
