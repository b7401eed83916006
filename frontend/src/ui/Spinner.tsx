interface SpinnerProps {
  /** Accessible name; when omitted the spinner is decorative (e.g. inside a busy button). */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

export function Spinner({ label, size = 'md', className }: SpinnerProps) {
  const classes = ['spinner', `spinner--${size}`, className].filter(Boolean).join(' ');
  if (!label) return <span className={classes} aria-hidden="true" />;
  return (
    <span role="status" className="spinner-wrap">
      <span className={classes} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** The centred spinner shown while a page or the session loads. */
export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="center-screen" data-testid="page-spinner">
      <Spinner size="lg" label={label} />
    </div>
  );
}
