import { apiPaths, type Topology, type TopologyQuery, topologySchema } from '@sv/shared';
import { keepPreviousData, queryOptions, usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { filtersFromSearch } from '../hooks/use-topology-params';
import { indexTopology, type TopologyIndex } from '../model/topology-model';
import { summarise, type TopologySummary } from '../model/view-model';

/** An answer with the lookups and counts every view of it needs, computed once when it arrives. */
export interface PreparedTopology {
  topology: Topology;
  index: TopologyIndex;
  summary: TopologySummary;
}

export function prepareTopology(topology: Topology): PreparedTopology {
  const index = indexTopology(topology);
  return { topology, index, summary: summarise(topology, index) };
}

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
    // Prepared here rather than while rendering: at 5,000 servers that is tens of milliseconds, and a
    // render React throws away (an update arriving mid-way) would pay it again.
    queryFn: async () => prepareTopology(await api('GET', topologyPath(filters), topologySchema)),
    // A whole-cloud answer can be megabytes; refresh on demand or on change events, not on every focus.
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  });

export function useTopology(filters: TopologyQuery) {
  // Keep drawing the last graph while a new filter loads, instead of blanking the page.
  return useQuery({ ...getTopologyQueryOptions(filters), placeholderData: keepPreviousData });
}

/**
 * Asks for the topology the address names as soon as the route renders, while the page's own code
 * (React Flow) is still loading: the request used to wait for it, about 0.3 s at 5,000 servers.
 */
export function usePrefetchTopology(): void {
  const [params] = useSearchParams();
  usePrefetchQuery(getTopologyQueryOptions(filtersFromSearch(params)));
}
