import { type TopologyQuery, topologyQuerySchema } from '@sv/shared';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type TopologyView = 'graph' | 'table';

export interface TopologyParams {
  filters: TopologyQuery;
  search: string;
  view: TopologyView;
}

const FILTER_KEYS = ['project', 'host', 'volume'] as const;

/** The filters a /topology address asks for; a hand-edited bad value drops that filter. */
export function filtersFromSearch(params: URLSearchParams): TopologyQuery {
  const out: TopologyQuery = {};
  for (const key of FILTER_KEYS) {
    const one = topologyQuerySchema.shape[key].safeParse(params.get(key) ?? undefined);
    if (one.success && one.data) out[key] = one.data;
  }
  return out;
}

/** Filters, search and view live in the URL, so a view can be shared and survives a reload. */
export function useTopologyParams(): [TopologyParams, (change: Partial<TopologyParams>) => void] {
  const [params, setParams] = useSearchParams();
  const project = params.get('project');
  const host = params.get('host');
  const volume = params.get('volume');
  const search = params.get('q') ?? '';
  const view: TopologyView = params.get('view') === 'table' ? 'table' : 'graph';

  // biome-ignore lint/correctness/useExhaustiveDependencies: the three values are what params says about filters
  const filters = useMemo(() => filtersFromSearch(params), [project, host, volume]);

  const set = useCallback(
    (change: Partial<TopologyParams>) =>
      setParams(
        (p) => {
          if (change.filters) {
            for (const key of FILTER_KEYS) {
              const value = change.filters[key];
              if (value) p.set(key, value);
              else p.delete(key);
            }
          }
          if (change.search !== undefined) {
            if (change.search) p.set('q', change.search);
            else p.delete('q');
          }
          if (change.view) {
            if (change.view === 'table') p.set('view', 'table');
            else p.delete('view');
          }
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );

  return [{ filters, search, view }, set];
}
