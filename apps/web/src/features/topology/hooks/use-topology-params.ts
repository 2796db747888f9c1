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

/** Filters, search and view live in the URL, so a view can be shared and survives a reload. */
export function useTopologyParams(): [TopologyParams, (change: Partial<TopologyParams>) => void] {
  const [params, setParams] = useSearchParams();
  const project = params.get('project');
  const host = params.get('host');
  const volume = params.get('volume');
  const search = params.get('q') ?? '';
  const view: TopologyView = params.get('view') === 'table' ? 'table' : 'graph';

  const filters = useMemo(() => {
    const raw = { project: project ?? undefined, host: host ?? undefined, volume: volume ?? undefined };
    // A hand-edited URL with a bad value drops that filter rather than breaking the page.
    const out: TopologyQuery = {};
    for (const key of FILTER_KEYS) {
      const one = topologyQuerySchema.shape[key].safeParse(raw[key]);
      if (one.success && one.data) out[key] = one.data;
    }
    return out;
  }, [project, host, volume]);

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
