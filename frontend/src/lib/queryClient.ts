import { QueryCache, QueryClient } from '@tanstack/react-query';
import { HttpError, getQueryFn } from './api';

/** Key of the session read; kept here (not imported from auth) to avoid an import cycle. */
const USER_KEY = '/api/user';

/** Reads: no retries, no refetch on focus, no polling, staleTime 0. Mutations: never retried. */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // A read answered 401 means the session has ended (expired, or signed out elsewhere): forget
    // the user so protected pages send the visitor to /auth instead of showing stale data.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (error instanceof HttpError && error.status === 401 && query.queryKey[0] !== USER_KEY) client.setQueryData([USER_KEY], null);
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: 0,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
