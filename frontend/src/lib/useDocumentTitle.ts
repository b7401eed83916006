import { useEffect } from 'react';
import { BRAND_NAME } from '../brand';

/** Sets the tab title, "Page · Brand", so each screen is announced and findable in history. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${BRAND_NAME}` : BRAND_NAME;
  }, [title]);
}
