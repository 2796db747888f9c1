/** Every cache key in one place, so a mutation in one feature can refresh another's data. */
export const queryKeys = {
  session: ['session'] as const,
  volumes: {
    all: ['volumes'] as const,
    list: (all: boolean) => ['volumes', 'list', all] as const,
    /** One page of the paged list, by its BFF query. */
    page: (query: string) => ['volumes', 'page', query] as const,
    detail: (id: string) => ['volumes', 'detail', id] as const,
  },
  servers: {
    all: ['servers'] as const,
    list: (all: boolean) => ['servers', 'list', all] as const,
    /** One page of the paged list, by its BFF query. */
    page: (query: string) => ['servers', 'page', query] as const,
    detail: (id: string) => ['servers', 'detail', id] as const,
  },
  volumeTypes: ['volume-types'] as const,
  /** Project names (an admin's: every project's). */
  projects: ['projects'] as const,
  flavors: ['flavors'] as const,
  images: ['images'] as const,
  zones: ['zones'] as const,
  hosts: ['hosts'] as const,
  preflight: (kind: 'volume' | 'server', id: string) => ['preflight', kind, id] as const,
  /** Prefix of every preflight answer: attach/detach make them all stale. */
  preflightAll: ['preflight'] as const,
  launch: (id: string) => ['launch', id] as const,
  /** The project's launches (under the same prefix: a launch change refreshes the list too). */
  launches: ['launch', 'list'] as const,
  topology: (filters: Record<string, string>) => ['topology', filters] as const,
  /** Prefix of every topology query, whatever its filters. */
  topologyAll: ['topology'] as const,
  // --- web17: snapshots ---
  /** Under the volumes prefix: a volume change (live update, mutation) refreshes its snapshots too. */
  snapshots: {
    all: ['volumes', 'snapshots'] as const,
    ofProject: (all: boolean) => ['volumes', 'snapshots', 'project', all] as const,
    ofVolume: (id: string) => ['volumes', 'snapshots', 'volume', id] as const,
  },
};
