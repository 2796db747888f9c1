import { apiPaths, serverSchema } from '@sv/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, serverBusy } from './busy';

export const getServer = (id: string) => api('GET', apiPaths.server(id), serverSchema);

export const serverQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.servers.detail(id),
    queryFn: () => getServer(id),
    refetchInterval: (q) => (q.state.data && serverBusy(q.state.data) ? BUSY_POLL_MS : false),
  });

export function useServer(id: string) {
  return useQuery(serverQueryOptions(id));
}
