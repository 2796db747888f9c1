import { apiPaths, healthSchema } from '@sv/shared';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../testing/msw-server';
import { Connectivity } from '../connectivity';

// The health watch behind the "data may be out of date" banner: GET /api/health decides; a failed call
// makes it look at once; while a part is down it looks again with backoff; when the part answers
// again it says so once (the app then refetches what is on screen).

type Health = 'ok' | 'cloud-down' | 'db-down' | 'no-server' | 'proxy-502';

const body = (cloud: boolean, database?: boolean) => ({
  status: cloud && database !== false ? 'ok' : 'unavailable',
  checks: {
    cloud: { status: cloud ? 'ok' : 'unreachable', ms: 1 },
    ...(database === undefined ? {} : { database: { status: database ? 'ok' : 'unreachable', ms: 1 } }),
  },
  checkedAt: '2026-01-01T00:00:00Z',
});

let health: Health;
let looks: number;

beforeEach(() => {
  vi.useFakeTimers();
  health = 'ok';
  looks = 0;
  // Only GET /api/health is answered: any other call fails the test.
  server.use(
    http.get(apiPaths.health, () => {
      looks += 1;
      if (health === 'no-server') return HttpResponse.error();
      if (health === 'proxy-502') return HttpResponse.html('<html>Bad gateway</html>', { status: 502 });
      const b = healthSchema.parse(
        health === 'ok' ? body(true, true) : health === 'cloud-down' ? body(false, true) : body(true, false),
      );
      return HttpResponse.json(b, { status: b.status === 'ok' ? 200 : 503 });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

const timing = { healthyIntervalMs: 10_000, minBackoffMs: 1_000, maxBackoffMs: 5_000 };

describe('Connectivity', () => {
  it('looks every healthy interval while all is well', async () => {
    const c = new Connectivity();
    c.start(timing);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(looks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(looks).toBe(2);
    expect(c.getState()).toEqual({ server: true, cloud: true, database: true, liveUpdateFailures: 0 });
    c.stop();
  });

  it('looks at once when a call fails, backs off while the cloud is down, and reports the recovery once', async () => {
    const c = new Connectivity();
    const recovered = vi.fn();
    c.onRecovered(recovered);
    c.start(timing);
    health = 'cloud-down';
    c.reportFailure();
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toBe(1);
    expect(c.getState().cloud).toBe(false);

    // More failing calls while it is known to be down add no looks: the backoff goes on.
    for (let i = 0; i < 20; i++) c.reportFailure();
    const at: number[] = [];
    for (let t = 0; t < 20_000; t += 100) {
      const before = looks;
      await vi.advanceTimersByTimeAsync(100);
      if (looks > before) at.push(t + 100);
    }
    // 1, 2, 4, then every 5 s.
    expect(at.slice(0, 5)).toEqual([1_000, 3_000, 7_000, 12_000, 17_000]);
    expect(recovered).not.toHaveBeenCalled();

    // The next look is at 22 s; the cloud is back by then. Then the healthy interval again (32 s).
    health = 'ok';
    await vi.advanceTimersByTimeAsync(2_000);
    expect(c.getState().cloud).toBe(true);
    expect(recovered).toHaveBeenCalledTimes(1);
    const after = looks;
    await vi.advanceTimersByTimeAsync(9_999);
    expect(looks).toBe(after);
    await vi.advanceTimersByTimeAsync(1);
    expect(looks).toBe(after + 1);
    expect(recovered).toHaveBeenCalledTimes(1);
    c.stop();
  });

  it('tells the dashboard server, the cloud and the database apart', async () => {
    const c = new Connectivity();
    health = 'no-server';
    await c.check();
    expect(c.getState()).toMatchObject({ server: false, cloud: true, database: true });
    health = 'proxy-502';
    await c.check();
    expect(c.getState()).toMatchObject({ server: false });
    health = 'db-down';
    await c.check();
    expect(c.getState()).toMatchObject({ server: true, cloud: true, database: false });
    health = 'cloud-down';
    await c.check();
    expect(c.getState()).toMatchObject({ server: true, cloud: false, database: true });
  });

  it('shares one look between callers and notifies subscribers only on a change', async () => {
    const c = new Connectivity();
    const changed = vi.fn();
    c.subscribe(changed);
    await Promise.all([c.check(), c.check(), c.check()]);
    expect(looks).toBe(1);
    expect(changed).not.toHaveBeenCalled();
    health = 'cloud-down';
    await c.check();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('counts live-update failures in a row and clears them when the stream opens or stops', () => {
    const c = new Connectivity();
    c.liveUpdatesFailed();
    c.liveUpdatesFailed();
    expect(c.getState().liveUpdateFailures).toBe(2);
    c.liveUpdatesOpened();
    expect(c.getState().liveUpdateFailures).toBe(0);
    c.liveUpdatesFailed();
    c.liveUpdatesStopped();
    expect(c.getState().liveUpdateFailures).toBe(0);
  });
});
