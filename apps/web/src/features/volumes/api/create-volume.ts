import { apiPaths, type CreateVolumeRequest, volumeSchema } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const createVolume = (data: CreateVolumeRequest) => api('POST', apiPaths.volumes, volumeSchema, data);

export function useCreateVolume() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createVolume,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
        qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
      ]),
  });
}
