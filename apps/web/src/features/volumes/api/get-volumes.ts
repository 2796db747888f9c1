import { apiPaths, volumeListSchema } from '@sv/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, volumeBusy } from './busy';

export const getVolumes = (all: boolean) =>
  api('GET', all ? `${apiPaths.volumes}?all=1` : apiPaths.volumes, volumeListSchema).then((r) => r.volumes);

export const volumesQueryOptions = (all: boolean) =>
  queryOptions({
    queryKey: queryKeys.volumes.list(all),
    queryFn: () => getVolumes(all),
    // Live updates cover most changes; polling covers transitions the event stream may miss.
    refetchInterval: (q) => (q.state.data?.some(volumeBusy) ? BUSY_POLL_MS : false),
  });

export function useVolumes(all: boolean) {
  return useQuery(volumesQueryOptions(all));
}
