import { apiPaths, serverListSchema } from '@sv/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS, serverBusy } from './busy';

export const getServers = (all: boolean) =>
  api('GET', all ? `${apiPaths.servers}?all=1` : apiPaths.servers, serverListSchema).then((r) => r.servers);

export const serversQueryOptions = (all: boolean) =>
  queryOptions({
    queryKey: queryKeys.servers.list(all),
    queryFn: () => getServers(all),
    refetchInterval: (q) => (q.state.data?.some(serverBusy) ? BUSY_POLL_MS : false),
  });

export function useServers(all: boolean) {
  return useQuery(serversQueryOptions(all));
}
