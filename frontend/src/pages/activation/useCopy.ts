import { useCallback } from 'react';

/**
 * Copies text: the Clipboard API where the page may use it, else a selected off-screen textarea and
 * `execCommand('copy')` (older WebViews, plain HTTP). Resolves false when neither worked.
 */
export function useCopy(): (text: string) => Promise<boolean> {
  return useCallback(async (text: string) => {
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch {
      // permission refused: try the fallback
    }
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.insetBlockStart = '-1000px';
    document.body.appendChild(area);
    const active = document.activeElement as HTMLElement | null;
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    active?.focus?.();
    return ok;
  }, []);
}
