import { apiPaths, type ChangeEvent, changeEventSchema } from '@sv/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectivity } from '../../lib/connectivity';
import { queryKeys } from '../../lib/query-keys';

type Kind = ChangeEvent['kind'];

/** Which cached data each kind of change makes stale. */
const STALE: Record<Kind, readonly (readonly unknown[])[]> = {
  volumes: [queryKeys.volumes.all, queryKeys.topologyAll, queryKeys.preflightAll],
  servers: [queryKeys.servers.all, queryKeys.topologyAll, queryKeys.preflightAll],
  attachments: [queryKeys.volumes.all, queryKeys.servers.all, queryKeys.topologyAll, queryKeys.preflightAll],
  // The launch's own record only: the servers, attachments and volumes it changes come as their
  // own events, so a progress page does not reread the project's volumes on every save.
  launch: [['launch']],
};
const ALL_KINDS = Object.keys(STALE) as Kind[];

/** Changes arrive in bursts (one per server of a launch): refetch once per burst. */
const BATCH_MS = 250;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** 1, 2, 4 … 30 s after the n-th failure in a row, each up to a quarter longer so tabs do not reconnect in step. */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (1 + random() / 4));
}

export interface LiveUpdatesOptions {
  /** Tests shorten the batching window. */
  batchMs?: number;
}

function invalidate(qc: QueryClient, kinds: Iterable<Kind>) {
  const keys = new Map<string, readonly unknown[]>();
  for (const kind of kinds) for (const key of STALE[kind]) keys.set(JSON.stringify(key), key);
  for (const key of keys.values()) void qc.invalidateQueries({ queryKey: key });
}

/**
 * Follows the BFF's change stream (Server-Sent Events) while signed in and refreshes the data
 * each change touches. After a dropped connection it reconnects with backoff and refreshes
 * everything, since changes may have been missed meanwhile.
 */
export function useLiveUpdates(opts: LiveUpdatesOptions = {}): void {
  const qc = useQueryClient();
  const batchMs = opts.batchMs ?? BATCH_MS;

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let batchTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    const pending = new Set<Kind>();

    const flush = () => {
      batchTimer = undefined;
      invalidate(qc, pending);
      pending.clear();
    };
    const onChange = (e: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(e.data));
      } catch {
        return;
      }
      const parsed = changeEventSchema.safeParse(data);
      if (!parsed.success) return;
      pending.add(parsed.data.kind);
      batchTimer ??= setTimeout(flush, batchMs);
    };

    const connect = () => {
      retryTimer = undefined;
      if (stopped) return;
      const es = new EventSource(apiPaths.events, { withCredentials: true });
      source = es;
      es.addEventListener('change', onChange as EventListener);
      es.addEventListener('open', () => {
        if (failures > 0) invalidate(qc, ALL_KINDS);
        failures = 0;
        connectivity.liveUpdatesOpened();
      });
      es.addEventListener('error', () => {
        // We own reconnecting: the browser gives up for good on an HTTP error (e.g. 401).
        es.close();
        if (source === es) source = null;
        if (stopped) return;
        failures += 1;
        connectivity.liveUpdatesFailed();
        retryTimer = setTimeout(connect, reconnectDelay(failures));
      });
    };

    // The dashboard's server or the cloud answers again: reconnect now, not at the end of the backoff.
    const forget = connectivity.onRecovered(() => {
      if (stopped || source || retryTimer === undefined) return;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      connect();
    });

    connect();
    return () => {
      stopped = true;
      forget();
      connectivity.liveUpdatesStopped();
      source?.close();
      clearTimeout(retryTimer);
      clearTimeout(batchTimer);
    };
  }, [qc, batchMs]);
}
