import { acceptedSchema, apiPaths } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const deleteServer = (id: string) => api('DELETE', apiPaths.server(id), acceptedSchema);

export function useDeleteServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteServer,
    onSuccess: (_data, id) => {
      qc.removeQueries({ queryKey: queryKeys.servers.detail(id) });
      // Its volumes are released as it goes.
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.servers.all }),
        qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
        qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
      ]);
    },
  });
}
