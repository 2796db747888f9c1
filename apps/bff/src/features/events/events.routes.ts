import { type ChangeEvent, changeEventSchema } from '@sv/shared';
import type { ChangeBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import { type ApiRoute, rawRoute } from '../../platform/route-table.js';
import type { SessionData } from '../../platform/session-store.js';
import { CloudWatcher, type Snapshot, scopeOf } from './events.service.js';

export interface EventsOptions {
  logger?: Logger;
  /** Comment lines keep proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** How often the cloud is polled for changes made elsewhere while a stream is open. */
  pollMs?: number;
  /** Tests replace how the cloud is looked at. */
  snapshot?: (session: SessionData) => Promise<Snapshot>;
}

/** GET /api/events: Server-Sent Events, `event: change` with a ChangeEvent as data. */
export function eventsRoutes(bus: ChangeBus, opts: EventsOptions = {}): ApiRoute[] {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const watcher = new CloudWatcher(bus, opts.logger ?? null, opts.pollMs ?? 2_500, opts.snapshot);

  return [
    rawRoute({
      method: 'get',
      path: '/api/events',
      summary: 'Server-Sent Events: `event: change`, a ChangeEvent as data',
      tag: 'events',
      responses: {
        200: { description: 'An event stream', schema: changeEventSchema, contentType: 'text/event-stream' },
      },
      handler: ({ session, res }) => {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache, no-transform',
          Connection: 'keep-alive',
          // nginx and friends would otherwise buffer the stream.
          'X-Accel-Buffering': 'no',
        });
        res.write('retry: 3000\n: connected\n\n');

        const send = (event: ChangeEvent) => {
          res.write(`event: change\ndata: ${JSON.stringify(changeEventSchema.parse(event))}\n\n`);
        };
        const unsubscribe = bus.subscribe(scopeOf(session), send);
        const leave = watcher.watch(session, () => res.end());
        const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
        res.on('close', () => {
          clearInterval(heartbeat);
          unsubscribe();
          leave();
        });
      },
    }),
  ];
}
