import { apiPaths, volumeSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The volume and who holds it, for the two-writer check when attaching from the volume side.
 * Same key and schema as the volume page's query, so they share one cache entry.
 */
export function useVolumeHolders(volumeId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.volumes.detail(volumeId),
    queryFn: () => api('GET', apiPaths.volume(volumeId), volumeSchema),
    enabled,
  });
}
