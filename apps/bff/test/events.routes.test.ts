import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import cookieParser from 'cookie-parser';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeEventSchema, type ChangeEvent } from '@sv/shared';
import { eventsRoutes } from '../src/features/events/events.routes.js';
import { diffSnapshots, type Snapshot } from '../src/features/events/events.service.js';
import { OpenStackFault } from '../src/openstack/fault.js';
import { ChangeBus } from '../src/platform/events.js';
import { errorHandler } from '../src/platform/errors.js';
import { createLogger } from '../src/platform/logger.js';
import { registerRoutes } from '../src/platform/route-table.js';
import { loadSession } from '../src/platform/session.js';
import { cloudData } from './helpers/cloud-data.js';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

let stack: TestStack;
let demo: Awaited<ReturnType<typeof cloudData>>;
let admin: Awaited<ReturnType<typeof cloudData>>;
let member: ApiClient;
let operator: ApiClient;

beforeAll(async () => {
  stack = await startStack();
  demo = await cloudData(stack, 'demo');
  admin = await cloudData(stack, 'admin');
  member = await stack.signIn('demo');
  operator = await stack.signIn('admin');
});
afterAll(async () => {
  await stack.close();
});

interface Stream {
  status: number;
  contentType: string | null;
  events: ChangeEvent[];
  comments: string[];
  ended: () => boolean;
  waitFor(pred: (e: ChangeEvent) => boolean, ms?: number): Promise<ChangeEvent>;
  close(): void;
}

/** Opens /api/events with fetch, as EventSource would, and parses what arrives. */
async function openStream(baseUrl: string, cookie: string | null): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, {
    headers: { Accept: 'text/event-stream', ...(cookie ? { Cookie: cookie } : {}) },
    signal: abort.signal,
  });
  const events: ChangeEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const lines = block.split('\n');
          for (const l of lines) if (l.startsWith(':')) comments.push(l.slice(1).trim());
          const data = lines.find((l) => l.startsWith('data: '));
          if (lines.includes('event: change') && data)
            events.push(changeEventSchema.parse(JSON.parse(data.slice(6))));
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended: () => ended,
    async waitFor(pred, ms = 8_000) {
      const until = Date.now() + ms;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (Date.now() > until) throw new Error(`no such event within ${ms} ms: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => abort.abort(),
  };
}

const about = (id: string, kinds: ChangeEvent['kind'][]) => (e: ChangeEvent) =>
  kinds.includes(e.kind) && e.ids.includes(id);

describe('GET /api/events', () => {
  it('streams text/event-stream and needs a session', async () => {
    const anonymous = await fetch(`${stack.bffUrl}/api/events`);
    expect(anonymous.status).toBe(401);
    const stream = await openStream(stack.bffUrl, member.cookie);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    stream.close();
  });

  it('reports an attach made straight through the cloud API (not this BFF) within seconds', async () => {
    const volume = await demo.volume('ev-direct');
    const server = await demo.server('ev-direct-server');
    const stream = await openStream(stack.bffUrl, member.cookie);
    try {
      // Let the watcher take its first look before the change.
      await new Promise((r) => setTimeout(r, 300));
      await demo.attach(server, volume);
      const event = await stream.waitFor(about(volume, ['attachments', 'volumes']));
      expect(Date.parse(event.at)).not.toBeNaN();
      await stream.waitFor(about(server, ['attachments']));
    } finally {
      stream.close();
    }
  });

  it('reports an attach made through the BFF at once, to the project and to admins', async () => {
    const volume = await demo.volume('ev-bff');
    const server = await demo.server('ev-bff-server');
    const mine = await openStream(stack.bffUrl, member.cookie);
    const all = await openStream(stack.bffUrl, operator.cookie);
    try {
      const res = await member.post(`/api/servers/${server}/attachments`, { volumeId: volume, mode: 'rw' });
      expect(res.status).toBeLessThan(300);
      await mine.waitFor(about(volume, ['attachments']), 2_000);
      await all.waitFor(about(volume, ['attachments']), 2_000);
    } finally {
      mine.close();
      all.close();
    }
  });

  it("does not tell a member about another project's changes", async () => {
    const mine = await openStream(stack.bffUrl, member.cookie);
    const all = await openStream(stack.bffUrl, operator.cookie);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const secret = await admin.volume('ev-admin-only');
      await all.waitFor(about(secret, ['volumes']));
      // One more poll cycle for the member's watcher.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(mine.events.some((e) => e.ids.includes(secret))).toBe(false);
    } finally {
      mine.close();
      all.close();
    }
  });
});

describe('the stream itself (a BFF with short intervals)', () => {
  let server: Server;
  let url: string;
  let polls = 0;
  let failWith: Error | null = null;
  const bus = new ChangeBus();
  const empty = (): Snapshot => ({ servers: new Map(), volumes: new Map() });

  beforeAll(async () => {
    const app = express();
    app.use(cookieParser());
    app.use(loadSession(stack.sessions));
    registerRoutes(
      app,
      eventsRoutes(bus, {
        heartbeatMs: 50,
        pollMs: 20,
        snapshot: async () => {
          polls += 1;
          if (failWith) throw failWith;
          return empty();
        },
      }),
    );
    app.use(errorHandler(createLogger('silent')));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends heartbeats, polls only while a stream is open, and stops on disconnect', async () => {
    expect(polls).toBe(0);
    const stream = await openStream(url, member.cookie);
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    expect(polls).toBeGreaterThan(2);
    bus.publish('elsewhere', 'volumes', ['x']);
    stream.close();
    await new Promise((r) => setTimeout(r, 100));
    const after = polls;
    await new Promise((r) => setTimeout(r, 200));
    expect(polls).toBe(after);
    expect(stream.events).toEqual([]);
  });

  it('ends the stream when the session token stops working', async () => {
    failWith = new OpenStackFault(
      'compute',
      401,
      'The request you have made requires authentication.',
      null,
      null,
    );
    const stream = await openStream(url, member.cookie);
    try {
      const until = Date.now() + 2_000;
      while (!stream.ended() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(stream.ended()).toBe(true);
    } finally {
      failWith = null;
      stream.close();
    }
  });
});

describe('diffSnapshots', () => {
  const mark = (fingerprint: string, holds: string[] = [], projectId = 'p') => ({
    projectId,
    fingerprint,
    holds,
  });
  it('names changed servers and volumes, and both ends of a changed attachment', () => {
    const before: Snapshot = {
      servers: new Map([
        ['s1', mark('ACTIVE')],
        ['s2', mark('ACTIVE', ['v1'])],
      ]),
      volumes: new Map([['v1', mark('in-use', ['s2'])]]),
    };
    const after: Snapshot = {
      servers: new Map([
        ['s1', mark('SHUTOFF')],
        ['s2', mark('ACTIVE')],
        ['s3', mark('BUILD', [], 'q')],
      ]),
      volumes: new Map([['v1', mark('available', [])]]),
    };
    expect(diffSnapshots(before, after)).toEqual([
      { kind: 'servers', projectId: 'p', ids: ['s1'] },
      { kind: 'servers', projectId: 'q', ids: ['s3'] },
      { kind: 'volumes', projectId: 'p', ids: ['v1'] },
      { kind: 'attachments', projectId: 'p', ids: ['s2', 'v1'] },
    ]);
    expect(diffSnapshots(after, after)).toEqual([]);
  });
});
