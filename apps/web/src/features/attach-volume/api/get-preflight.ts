import { apiPaths, preflightSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type AttachSubject = { kind: 'server' | 'volume'; id: string; name: string };

export const getPreflight = (subject: Pick<AttachSubject, 'kind' | 'id'>) =>
  api(
    'GET',
    subject.kind === 'server'
      ? apiPaths.preflightForServer(subject.id)
      : apiPaths.preflightForVolume(subject.id),
    preflightSchema,
  );

/** What can attach to the subject, and why not; asked afresh each time the dialog opens. */
export function usePreflight(subject: Pick<AttachSubject, 'kind' | 'id'>, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.preflight(subject.kind, subject.id),
    queryFn: () => getPreflight(subject),
    enabled,
    staleTime: 0,
  });
}
