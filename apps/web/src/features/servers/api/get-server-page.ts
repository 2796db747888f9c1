import { apiPaths, availabilityZoneListSchema, serverPageSchema } from '@sv/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, serverBusy } from './busy';

/** One page of servers for a BFF query (`q=web&sort=name&page=2…`). */
export const getServerPage = (query: string) =>
  api('GET', `${apiPaths.serverPage}?${query}`, serverPageSchema);

export const serverPageQueryOptions = (query: string) =>
  queryOptions({
    queryKey: queryKeys.servers.page(query),
    queryFn: () => getServerPage(query),
    // The rows on screen stay while the next page loads.
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.servers.some(serverBusy) ? BUSY_POLL_MS : false),
  });

export function useServerPage(query: string) {
  return useQuery(serverPageQueryOptions(query));
}

/** The zones to filter by. */
export function useServerZones() {
  return useQuery({
    queryKey: [...queryKeys.zones, 'list'],
    queryFn: () => api('GET', apiPaths.availabilityZones, availabilityZoneListSchema).then((r) => r.zones),
    staleTime: 5 * 60_000,
  });
}
