import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { databaseProbe, HealthMonitor, type HealthProbe } from '../../src/platform/health.js';
import { LEVEL, logBuffer } from './log-buffer.js';

// The health monitor: at most one look per cache window whatever the number of callers (a load
// balancer's checks must not become load on the cloud), bounded looks, state changes logged once.

function counted(name: HealthProbe['name'], behaviour: () => Promise<void>) {
  const probe = {
    name,
    label: `the ${name}`,
    calls: 0,
    async check() {
      probe.calls += 1;
      await behaviour();
    },
  };
  return probe;
}

/** A port where nothing listens. */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

describe('HealthMonitor', () => {
  it('shares one look between concurrent and close callers', async () => {
    let now = 0;
    const cloud = counted('cloud', () => new Promise((r) => setTimeout(r, 20)));
    const monitor = new HealthMonitor([cloud], createLogger('silent'), { cacheMs: 2_000, now: () => now });
    const answers = await Promise.all(Array.from({ length: 50 }, () => monitor.health()));
    expect(cloud.calls).toBe(1);
    expect(answers.every((a) => a.status === 'ok')).toBe(true);
    now = 1_999;
    await monitor.health();
    expect(cloud.calls).toBe(1);
    now = 2_000;
    await monitor.health();
    expect(cloud.calls).toBe(2);
  });

  it('calls a part that does not answer in time unreachable', async () => {
    const cloud = counted('cloud', () => new Promise(() => undefined));
    const monitor = new HealthMonitor([cloud], createLogger('silent'), { timeoutMs: 50 });
    const started = Date.now();
    const health = await monitor.health();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(health).toMatchObject({ status: 'unavailable', checks: { cloud: { status: 'unreachable' } } });
  });

  it('logs a part going down once, with the reason, and coming back once', async () => {
    let now = 0;
    let up = false;
    const log = logBuffer();
    const cloud = counted('cloud', async () => {
      if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    });
    const monitor = new HealthMonitor([cloud], createLogger('debug', { destination: log }), {
      cacheMs: 10,
      now: () => now,
    });
    for (let i = 0; i < 5; i++) {
      now += 100;
      expect((await monitor.health()).status).toBe('unavailable');
    }
    up = true;
    now += 100;
    expect((await monitor.health()).status).toBe('ok');
    now += 100;
    await monitor.health();
    const lines = log.lines();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [LEVEL.warn, 'the cloud does not answer'],
      [LEVEL.info, 'the cloud answers again'],
    ]);
    expect(lines[0]?.error).toContain('ECONNREFUSED');
  });

  it('names the database when it is the part that is down', async () => {
    const url = `postgres://postgres@127.0.0.1:${await deadPort()}/nothing`;
    const cloud = counted('cloud', async () => undefined);
    const monitor = new HealthMonitor(
      [cloud, databaseProbe(url, createLogger('silent'))],
      createLogger('silent'),
    );
    expect(await monitor.health()).toMatchObject({
      status: 'unavailable',
      checks: { cloud: { status: 'ok' }, database: { status: 'unreachable' } },
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('reaches a live PostgreSQL', async () => {
    const monitor = new HealthMonitor(
      [databaseProbe(process.env.TEST_DATABASE_URL!, createLogger('silent'))],
      createLogger('silent'),
    );
    expect(await monitor.health()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' } } });
  });
});
