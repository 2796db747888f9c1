import { apiPaths, volumeTypeListSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getVolumeTypes = () =>
  api('GET', apiPaths.volumeTypes, volumeTypeListSchema).then((r) => r.types);

export function useVolumeTypes(enabled = true) {
  return useQuery({
    queryKey: queryKeys.volumeTypes,
    queryFn: getVolumeTypes,
    staleTime: 5 * 60_000,
    enabled,
  });
}
