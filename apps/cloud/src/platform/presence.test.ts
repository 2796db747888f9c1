import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { type Presence, type ReconcileScope, takeoverLooks } from './presence.js';
import { TaskRunner, type TaskSubject } from './tasks.js';

const log = createLogger('silent');

/** A database where this process is alone or not, as the test says. */
function fakePresence() {
  const p = {
    alone: true,
    shared: true,
    async whenAlone(work: () => Promise<void>) {
      if (!p.alone) return false;
      await work();
      return true;
    },
    async close() {},
  };
  return p satisfies Presence;
}

/** A reconcile that finds `inFlight` and records what each look claimed. */
function fakeReconcile(inFlight: TaskSubject[]) {
  const looks: TaskSubject[][] = [];
  return {
    looks,
    reconcile: async (scope: ReconcileScope) => {
      expect(scope.atStart).toBe(false);
      looks.push(inFlight.filter((s) => scope.claims(s)));
    },
  };
}

describe('takeoverLooks', () => {
  it('takes over work uncovered at two looks in a row, never what its own tasks cover', async () => {
    const tasks = new TaskRunner(60_000, log);
    tasks.schedule('mine', async () => undefined, 60_000, 'server:mine');
    const { looks, reconcile } = fakeReconcile(['server:mine', 'server:orphan', 'volume:orphan']);
    const look = takeoverLooks(fakePresence(), tasks, reconcile, log);
    await look();
    await look();
    expect(looks).toEqual([[], ['server:orphan', 'volume:orphan']]);
    tasks.stop();
  });

  it('starts over when another process was alive at a look', async () => {
    const tasks = new TaskRunner(0, log);
    const presence = fakePresence();
    const { looks, reconcile } = fakeReconcile(['server:x']);
    const look = takeoverLooks(presence, tasks, reconcile, log);
    await look();
    presence.alone = false;
    await look();
    presence.alone = true;
    await look();
    await look();
    expect(looks).toEqual([[], [], ['server:x']]);
  });

  it('does not take over work that was covered at the previous look (committed, then scheduled)', async () => {
    const tasks = new TaskRunner(0, log);
    const { looks, reconcile } = fakeReconcile(['server:x']);
    const look = takeoverLooks(fakePresence(), tasks, reconcile, log);
    tasks.schedule('x', async () => undefined, 10_000, 'server:x');
    await look();
    tasks.stop();
    await look();
    await look();
    expect(looks).toEqual([[], [], ['server:x']]);
  });
});
