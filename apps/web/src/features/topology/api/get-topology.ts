import { apiPaths, type TopologyQuery, topologySchema } from '@sv/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The query string for GET /api/topology: only the filters that are set. */
export function topologyPath(filters: TopologyQuery): string {
  const params = new URLSearchParams();
  if (filters.project) params.set('project', filters.project);
  if (filters.host) params.set('host', filters.host);
  if (filters.volume) params.set('volume', filters.volume);
  const qs = params.toString();
  return qs ? `${apiPaths.topology}?${qs}` : apiPaths.topology;
}

const keyOf = (f: TopologyQuery): Record<string, string> => ({
  ...(f.project ? { project: f.project } : {}),
  ...(f.host ? { host: f.host } : {}),
  ...(f.volume ? { volume: f.volume } : {}),
});

export const getTopologyQueryOptions = (filters: TopologyQuery) =>
  queryOptions({
    queryKey: queryKeys.topology(keyOf(filters)),
    queryFn: () => api('GET', topologyPath(filters), topologySchema),
    // A whole-cloud answer can be megabytes; refresh on demand or on change events, not on every focus.
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  });

export function useTopology(filters: TopologyQuery) {
  // Keep drawing the last graph while a new filter loads, instead of blanking the page.
  return useQuery({ ...getTopologyQueryOptions(filters), placeholderData: keepPreviousData });
}
