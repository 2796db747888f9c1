import { apiPaths, projectListSchema, type ProjectRef } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * Project names for showing instead of ids: an admin's are every project's (Keystone's list), a
 * member's their own. `nameOf` falls back to the id's first 8 characters while they load, or for
 * a project the user cannot see.
 */
export function useProjectNames(enabled = true) {
  const q = useQuery({
    queryKey: queryKeys.projects,
    queryFn: () => api('GET', apiPaths.projects, projectListSchema).then((r) => r.projects),
    enabled,
    staleTime: 5 * 60_000,
  });
  const byId = new Map((q.data ?? []).map((p) => [p.id, p.name]));
  return {
    projects: q.data ?? ([] as ProjectRef[]),
    nameOf: (id: string | null | undefined): string => (id ? (byId.get(id) ?? id.slice(0, 8)) : '—'),
  };
}
