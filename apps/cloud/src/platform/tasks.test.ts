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
