import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy between processes and PostgreSQL that a test can break the way networks break:
 * - `freeze()`: nothing passes any more, in either direction, and nothing is closed: every socket
 *   hangs, as on a frozen network (a cable pulled, a switch stuck). New connections are accepted
 *   and hang too. `restore()` delivers what waited, in order, as TCP retransmission would;
 * - `reset()`: every connection is reset (RST) and new ones are reset as they arrive, as when a
 *   firewall or the server's host drops them; `restore()` lets new connections through again.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` (a postgres:// URL) pointed at this proxy instead of its own host and port. */
  via(url: string): string;
  freeze(): void;
  reset(): void;
  restore(): void;
  /** Connections open through the proxy right now. */
  readonly open: number;
  close(): Promise<void>;
}

type Mode = 'pass' | 'frozen' | 'reset';

/** One client connection and its upstream; while frozen, what each side sent waits in `held`. */
interface Link {
  client: Socket;
  upstream: Socket | null;
  /** Chunks (or `null` for an end) not yet delivered, per direction. */
  held: { up: (Buffer | null)[]; down: (Buffer | null)[] };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'pass';
  const links = new Set<Link>();

  const deliver = (link: Link, direction: 'up' | 'down', chunk: Buffer | null) => {
    const to = direction === 'up' ? link.upstream : link.client;
    if (mode === 'frozen' || !to || to.connecting) {
      link.held[direction].push(chunk);
      return;
    }
    if (chunk === null) to.end();
    else to.write(chunk);
  };
  const flush = (link: Link) => {
    for (const direction of ['up', 'down'] as const) {
      const to = direction === 'up' ? link.upstream : link.client;
      if (!to || to.connecting || to.destroyed) continue;
      for (const chunk of link.held[direction].splice(0)) {
        if (chunk === null) to.end();
        else to.write(chunk);
      }
    }
  };
  const drop = (link: Link) => {
    links.delete(link);
    link.client.destroy();
    link.upstream?.destroy();
  };
  const openUpstream = (link: Link) => {
    const upstream = connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('connect', () => {
      if (mode === 'pass') flush(link);
    });
    upstream.on('data', (chunk: Buffer) => deliver(link, 'down', chunk));
    upstream.on('end', () => deliver(link, 'down', null));
    upstream.on('error', () => drop(link));
    upstream.on('close', () => {
      if (mode !== 'frozen') drop(link);
    });
  };

  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, upstream: null, held: { up: [], down: [] } };
    links.add(link);
    client.on('data', (chunk: Buffer) => deliver(link, 'up', chunk));
    client.on('end', () => deliver(link, 'up', null));
    client.on('error', () => drop(link));
    client.on('close', () => {
      if (mode !== 'frozen') drop(link);
    });
    // A frozen network does not even reach the server: connect once it is back.
    if (mode === 'pass') openUpstream(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    freeze() {
      mode = 'frozen';
    },
    reset() {
      mode = 'reset';
      for (const link of [...links]) {
        links.delete(link);
        link.client.resetAndDestroy();
        link.upstream?.resetAndDestroy();
      }
    },
    restore() {
      mode = 'pass';
      for (const link of [...links]) {
        if (!link.upstream) {
          if (link.client.destroyed) drop(link);
          else openUpstream(link);
          continue;
        }
        flush(link);
        // A side that went away while frozen: the other one learns it now, after what was held.
        if (link.client.destroyed && !link.upstream.writableEnded) link.upstream.end();
        if (link.upstream.destroyed && !link.client.destroyed) link.client.end();
      }
    },
    get open() {
      return links.size;
    },
    async close() {
      for (const link of [...links]) drop(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
