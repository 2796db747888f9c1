import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { DEFAULT_RETRY, retryDelayMs, TaskRunner } from './tasks.js';

const log = createLogger('silent');

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: { level: number; msg: string; attempt?: number; task?: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** The errors the libsql dialect and node-postgres raise for a full disk and a dropped connection. */
const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const connectionLost = () => new Error('Connection terminated unexpectedly');
const fastRetry = { baseMs: 5, maxMs: 20 };

describe('TaskRunner', () => {
  it('idle() waits for work and for the work it schedules', async () => {
    const tasks = new TaskRunner(0, log);
    const seen: string[] = [];
    tasks.schedule('a', async () => {
      seen.push('a');
      tasks.schedule('b', async () => {
        seen.push('b');
      });
    });
    await tasks.idle();
    expect(seen).toEqual(['a', 'b']);
  });

  it('logs a failure instead of throwing it', async () => {
    const tasks = new TaskRunner(0, log);
    tasks.schedule('boom', async () => {
      throw new Error('boom');
    });
    await expect(tasks.idle()).resolves.toBeUndefined();
  });

  it('covers() a subject while work on it is scheduled or running, and not after', async () => {
    const tasks = new TaskRunner(0, log);
    let seenWhileRunning = false;
    tasks.schedule('first', async () => undefined, 0, 'server:a');
    tasks.schedule(
      'second',
      async () => {
        seenWhileRunning = tasks.covers('server:a');
      },
      5,
      'server:a',
    );
    expect(tasks.covers('server:a')).toBe(true);
    expect(tasks.covers('server:b')).toBe(false);
    await tasks.idle();
    expect(seenWhileRunning).toBe(true);
    expect(tasks.covers('server:a')).toBe(false);
    tasks.schedule('cancelled', async () => undefined, 10_000, 'volume:v');
    tasks.stop();
    expect(tasks.covers('volume:v')).toBe(false);
  });

  it('after stop(), scheduled work never runs and idle() does not hang', async () => {
    const tasks = new TaskRunner(10_000, log);
    let ran = false;
    tasks.schedule('later', async () => {
      ran = true;
    });
    tasks.stop();
    await tasks.idle();
    tasks.schedule('after stop', async () => {
      ran = true;
    });
    await tasks.idle();
    expect(ran).toBe(false);
  });

  it('runs a step that failed on a transient database fault again until it succeeds', async () => {
    const { logger, lines } = recordingLogger();
    const tasks = new TaskRunner(0, logger, fastRetry);
    const failures = [diskFull(), connectionLost(), Object.assign(new Error('busy'), { code: '57P01' })];
    let runs = 0;
    let coveredBetweenRuns = true;
    tasks.schedule(
      'volume.create',
      async () => {
        runs++;
        if (runs > 1) coveredBetweenRuns &&= tasks.covers('volume:v1');
        const failure = failures.shift();
        if (failure) throw failure;
      },
      0,
      'volume:v1',
    );
    await tasks.idle();
    expect(runs).toBe(4);
    // Another process must not take the work over while it waits for its next attempt.
    expect(coveredBetweenRuns).toBe(true);
    expect(tasks.covers('volume:v1')).toBe(false);
    const retries = lines.filter((l) => l.msg === 'background task failed on the database; retrying');
    expect(retries.map((l) => [l.level, l.attempt, l.task])).toEqual([
      [40, 1, 'volume.create'],
      [40, 2, 'volume.create'],
      [40, 3, 'volume.create'],
    ]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('logs any other failure once, at error, and does not run the step again', async () => {
    const { logger, lines } = recordingLogger();
    const tasks = new TaskRunner(0, logger, fastRetry);
    let runs = 0;
    tasks.schedule('compute: server step', async () => {
      runs++;
      throw Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT' });
    });
    await tasks.idle();
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(1);
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual(['background task failed']);
  });

  it('stop() cancels a step waiting to be retried', async () => {
    const tasks = new TaskRunner(0, log, { baseMs: 60_000, maxMs: 60_000 });
    let runs = 0;
    tasks.schedule(
      'volume.create',
      async () => {
        runs++;
        throw diskFull();
      },
      0,
      'volume:v2',
    );
    while (runs === 0) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(tasks.covers('volume:v2')).toBe(true);
    tasks.stop();
    await tasks.idle();
    expect(runs).toBe(1);
    expect(tasks.covers('volume:v2')).toBe(false);
  });

  it('backs off exponentially with jitter, capped', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    expect(retryDelayMs(DEFAULT_RETRY, 1, low)).toBe(50);
    expect(retryDelayMs(DEFAULT_RETRY, 1, high)).toBe(100);
    expect(retryDelayMs(DEFAULT_RETRY, 4, low)).toBe(400);
    expect(retryDelayMs(DEFAULT_RETRY, 4, high)).toBe(800);
    expect(retryDelayMs(DEFAULT_RETRY, 20, high)).toBe(30_000);
    expect(retryDelayMs(DEFAULT_RETRY, 1_000, low)).toBe(15_000);
  });
});
