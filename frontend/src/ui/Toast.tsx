import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { AlertIcon, CheckIcon, CloseIcon } from './icons';

export const TOAST_DEFAULT_DURATION = 5000;

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  variant?: 'default' | 'success' | 'destructive';
  /** Milliseconds before it hides; defaults to 5000. */
  duration?: number;
}

interface ActiveToast extends ToastOptions {
  id: number;
}

interface ToastContextValue {
  toast: (options: ToastOptions) => void;
  dismiss: () => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

/** One toast at a time: a new one replaces the current one. */
export function ToastProvider({ children, dismissLabel, regionLabel }: { children: ReactNode; dismissLabel: string; regionLabel: string }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const nextId = useRef(1);

  const toast = useCallback((options: ToastOptions) => {
    setCurrent({ ...options, id: nextId.current++ });
  }, []);
  const dismiss = useCallback(() => setCurrent(null), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastViewport toast={current} onDismiss={dismiss} dismissLabel={dismissLabel} regionLabel={regionLabel} />
    </ToastContext.Provider>
  );
}

export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used within a ToastProvider');
  return ctx;
}

function ToastViewport({ toast, onDismiss, dismissLabel, regionLabel }: { toast: ActiveToast | null; onDismiss: () => void; dismissLabel: string; regionLabel: string }) {
  const destructive = toast?.variant === 'destructive';
  // The portal exists only once mounted in the browser: pre-rendering (Node) has no document.body
  // and runs no effects, and hydration must first render what the pre-renderer did (nothing here).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;
  // Both live regions always exist so that inserting a toast is announced.
  return createPortal(
    <section className="toast-viewport" aria-label={regionLabel}>
      <div role="status" aria-live="polite" aria-atomic="true">
        {toast && !destructive && <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} dismissLabel={dismissLabel} />}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true">
        {toast && destructive && <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} dismissLabel={dismissLabel} />}
      </div>
    </section>,
    document.body,
  );
}

function ToastCard({ toast, onDismiss, dismissLabel }: { toast: ActiveToast; onDismiss: () => void; dismissLabel: string }) {
  const [paused, setPaused] = useState(false);
  const duration = toast.duration ?? TOAST_DEFAULT_DURATION;
  const remaining = useRef(duration);
  const startedAt = useRef(0);

  useEffect(() => {
    if (paused || !Number.isFinite(duration)) return;
    startedAt.current = Date.now();
    const timer = window.setTimeout(onDismiss, remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current -= Date.now() - startedAt.current;
    };
  }, [paused, duration, onDismiss]);

  const variant = toast.variant ?? 'default';
  return (
    <div
      className={`toast toast--${variant}`}
      data-testid="toast"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast__icon" aria-hidden="true">
        {variant === 'destructive' ? <AlertIcon size={20} /> : <CheckIcon size={20} />}
      </span>
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        {toast.description && <p className="toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="icon-button icon-button--sm toast__close" aria-label={dismissLabel} onClick={onDismiss}>
        <CloseIcon size={18} />
      </button>
    </div>
  );
}
