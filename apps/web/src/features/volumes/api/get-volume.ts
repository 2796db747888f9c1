import { apiPaths, volumeSchema } from '@sv/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, volumeBusy } from './busy';

export const getVolume = (id: string) => api('GET', apiPaths.volume(id), volumeSchema);

export const volumeQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.volumes.detail(id),
    queryFn: () => getVolume(id),
    refetchInterval: (q) => (q.state.data && volumeBusy(q.state.data) ? BUSY_POLL_MS : false),
  });

export function useVolume(id: string) {
  return useQuery(volumeQueryOptions(id));
}
