import { useQuery } from '@tanstack/react-query';
import type { PlanPrice } from '@esim/contracts';
import { apiJson } from './api';

/**
 * The plans at their prices for a buyer in `country` (`GET /api/plans`): every screen that shows a
 * plan's price reads it here, so it is the catalogue's, in reais for Brazil and US dollars
 * elsewhere. The catalogue changes only with a release: read once per page load.
 */
export function usePlanPrices(country: string | undefined) {
  return useQuery<PlanPrice[]>({
    queryKey: ['/api/plans', country ?? null],
    queryFn: () => apiJson<PlanPrice[]>('GET', country ? `/api/plans?country=${encodeURIComponent(country)}` : '/api/plans'),
    staleTime: Infinity,
  });
}

/**
 * Where a visitor who has not chosen a country most likely buys from: the region of the browser's
 * language ("pt-BR" → BR); without one, Portuguese means Brazil (the product's home market).
 */
export function visitorCountry(language: string): string | undefined {
  const preferred = typeof navigator === 'undefined' ? undefined : navigator.language;
  const region = preferred?.match(/^[a-z]{2,3}[-_]([A-Za-z]{2})\b/)?.[1];
  if (region) return region.toUpperCase();
  return language.startsWith('pt') ? 'BR' : undefined;
}
