import { acceptedSchema, apiPaths } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const deleteVolume = (id: string) => api('DELETE', apiPaths.volume(id), acceptedSchema);

export function useDeleteVolume() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteVolume,
    onSuccess: (_data, id) => {
      // The detail page is left behind; don't refetch a volume that is going away.
      qc.removeQueries({ queryKey: queryKeys.volumes.detail(id) });
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
        qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
      ]);
    },
  });
}
