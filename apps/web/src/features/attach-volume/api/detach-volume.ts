import { acceptedSchema, apiPaths } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateHolds } from './invalidate-holds';

export const detachVolume = ({ serverId, volumeId }: { serverId: string; volumeId: string }) =>
  api('DELETE', apiPaths.serverAttachment(serverId, volumeId), acceptedSchema);

export function useDetachVolume() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: detachVolume,
    // Not awaited: the dialog closes at once and the page refreshes behind it.
    onSuccess: () => {
      void invalidateHolds(qc);
    },
  });
}
