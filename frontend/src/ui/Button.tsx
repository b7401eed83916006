import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'gold' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface StyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Full width of its container. */
  block?: boolean;
  icon?: ReactNode;
}

function classes({ variant = 'primary', size = 'md', block }: StyleProps, extra?: string) {
  return ['btn', `btn--${variant}`, `btn--${size}`, block && 'btn--block', extra].filter(Boolean).join(' ');
}

export interface ButtonProps extends ComponentPropsWithoutRef<'button'>, StyleProps {
  /** While true the button shows a spinner, is disabled and reports aria-busy. */
  busy?: boolean;
  /** Text announced and shown while busy; defaults to the children. */
  busyText?: ReactNode;
}

// forwardRef rather than React 19's ref-as-a-prop: the app runs on preact/compat (vite.config.ts),
// which hands a function component its ref only through forwardRef.
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, block, icon, busy = false, busyText, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      className={classes({ variant, size, block }, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy ? <Spinner size="sm" /> : icon}
      <span>{busy && busyText ? busyText : children}</span>
    </button>
  );
});

export interface ButtonLinkProps extends LinkProps, StyleProps {}

/** A router link that looks like a button (navigation stays a link for assistive technology). */
export function ButtonLink({ variant, size, block, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link {...rest} className={classes({ variant, size, block }, className)}>
      {icon}
      <span>{children}</span>
    </Link>
  );
}
