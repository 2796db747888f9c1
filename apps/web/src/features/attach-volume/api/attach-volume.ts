import { type AttachVolumeRequest, apiPaths, attachmentSchema } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateHolds } from './invalidate-holds';

export const attachVolume = ({ serverId, data }: { serverId: string; data: AttachVolumeRequest }) =>
  api('POST', apiPaths.serverAttachments(serverId), attachmentSchema, data);

export function useAttachVolume() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: attachVolume,
    // Not awaited: the dialog closes at once and the page refreshes behind it.
    onSuccess: () => {
      void invalidateHolds(qc);
    },
  });
}
