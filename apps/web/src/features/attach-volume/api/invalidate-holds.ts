import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';

/**
 * After an attach or detach every view of who holds what is stale. (Pre-flight answers need
 * no nudge: the dialog asks afresh each time it opens.)
 */
export function invalidateHolds(qc: QueryClient): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
    qc.invalidateQueries({ queryKey: queryKeys.servers.all }),
    qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
  ]);
}
