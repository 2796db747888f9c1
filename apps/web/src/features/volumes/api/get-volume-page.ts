import { apiPaths, availabilityZoneListSchema, volumePageSchema } from '@sv/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, volumeBusy } from './busy';

/** One page of volumes for a BFF query (`q=data&shared=yes&page=2…`). */
export const getVolumePage = (query: string) =>
  api('GET', `${apiPaths.volumePage}?${query}`, volumePageSchema);

export const volumePageQueryOptions = (query: string) =>
  queryOptions({
    queryKey: queryKeys.volumes.page(query),
    queryFn: () => getVolumePage(query),
    // The rows on screen stay while the next page loads.
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.volumes.some(volumeBusy) ? BUSY_POLL_MS : false),
  });

export function useVolumePage(query: string) {
  return useQuery(volumePageQueryOptions(query));
}

/** The zones to filter by (the compute zones: Cinder's are named alike in most clouds). */
export function useVolumeZones() {
  return useQuery({
    queryKey: [...queryKeys.zones, 'list'],
    queryFn: () => api('GET', apiPaths.availabilityZones, availabilityZoneListSchema).then((r) => r.zones),
    staleTime: 5 * 60_000,
  });
}
