import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { TaskRunner } from './tasks.js';

const log = createLogger('silent');

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
});
