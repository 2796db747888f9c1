import { QueryClient } from '@tanstack/react-query';
import { isTransient } from './api-client';

/** Asking again cures only a transient failure (no answer, 502/503/504); a 4xx or a 500 stays as it is. */
export const MAX_TRANSIENT_RETRIES = 3;

/**
 * 1, 2, 4 s (at most 10 s), each up to a quarter longer so that open tabs do not ask in step; after
 * that the page shows the error, and the banner's health watch refetches it when the cloud is back.
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 1_000 * 2 ** attempt);
  return Math.round(base * (1 + random() / 4));
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, err) => isTransient(err) && count < MAX_TRANSIENT_RETRIES,
        retryDelay: (attempt) => retryDelay(attempt),
        refetchOnWindowFocus: true,
      },
    },
  });
}
