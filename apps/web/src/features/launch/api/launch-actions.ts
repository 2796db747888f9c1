import { apiPaths, launchSchema } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The two actions on a launch's failed servers: delete them, or create them again. */
export function useLaunchAction(id: string, action: 'delete-failed' | 'retry-failed') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api(
        'POST',
        action === 'delete-failed' ? apiPaths.launchDeleteFailed(id) : apiPaths.launchRetryFailed(id),
        launchSchema,
      ),
    onSuccess: (launch) => {
      qc.setQueryData(queryKeys.launch(id), launch);
      void qc.invalidateQueries({ queryKey: queryKeys.launches });
      void qc.invalidateQueries({ queryKey: queryKeys.servers.all });
      void qc.invalidateQueries({ queryKey: queryKeys.volumes.all });
    },
  });
}
