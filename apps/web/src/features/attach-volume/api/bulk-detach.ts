import { apiPaths, type BulkDetachRequest, bulkDetachResultSchema } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateHolds } from './invalidate-holds';

/** One request for the whole batch: the BFF detaches one volume's holders one after another. */
export const bulkDetach = (data: BulkDetachRequest) =>
  api('POST', apiPaths.bulkDetach, bulkDetachResultSchema, data).then((r) => r.outcomes);

export function useBulkDetach() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: bulkDetach,
    onSuccess: () => {
      void invalidateHolds(qc);
    },
  });
}
