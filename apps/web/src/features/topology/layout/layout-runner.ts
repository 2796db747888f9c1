import { createContext } from 'react';
import { type ElkLike, type LayoutPhase, layoutTopology, shouldUseElk } from './layout';
import type { LayoutInput, LayoutRequest, LayoutResponse, LayoutResult } from './layout-types';

export interface LayoutJob {
  promise: Promise<LayoutResult>;
  cancel(): void;
}

/** Runs layouts somewhere (a Web Worker in the app, the test's own thread in tests). */
export interface LayoutRunner {
  run(input: LayoutInput, mode: 'auto' | 'columns', onPhase: (phase: LayoutPhase) => void): LayoutJob;
  /** Stops any work; a later run starts afresh. */
  dispose(): void;
}

export class LayoutCancelled extends Error {
  constructor() {
    super('layout cancelled');
    this.name = 'LayoutCancelled';
  }
}

type Pending = {
  resolve: (r: LayoutResult) => void;
  reject: (e: Error) => void;
  onPhase: (p: LayoutPhase) => void;
};

/** One lazily started worker of one kind; terminating it is the only way to stop elk mid-run. */
function workerSlot(create: () => Worker) {
  let worker: Worker | null = null;
  const pending = new Map<number, Pending>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const stop = () => {
    worker?.terminate();
    worker = null;
    failAll(new LayoutCancelled());
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const w = create();
    w.onmessage = (event: MessageEvent<LayoutResponse>) => {
      const msg = event.data;
      const p = pending.get(msg.id);
      if (!p) return;
      if (msg.type === 'progress') p.onPhase(msg.phase);
      else {
        pending.delete(msg.id);
        if (msg.type === 'done') p.resolve(msg.result);
        else p.reject(new Error(msg.message));
      }
    };
    w.onerror = (event) => {
      event.preventDefault();
      failAll(new Error(event.message || 'The layout worker failed.'));
      worker?.terminate();
      worker = null;
    };
    worker = w;
    return w;
  };
  return {
    run(request: LayoutRequest, p: Pending): () => void {
      pending.set(request.id, p);
      ensure().postMessage(request);
      return () => {
        if (!pending.has(request.id)) return;
        pending.delete(request.id);
        p.reject(new LayoutCancelled());
        stop();
      };
    },
    stop,
  };
}

/**
 * Layouts in Web Workers: one that loads elk for graphs small enough for it, one without elk for
 * the columns layout, so a big graph never pays for elk's download and compile.
 */
export function createWorkerRunner(): LayoutRunner {
  const elk = workerSlot(
    () => new Worker(new URL('./elk-layout.worker.ts', import.meta.url), { type: 'module' }),
  );
  const columns = workerSlot(
    () => new Worker(new URL('./columns-layout.worker.ts', import.meta.url), { type: 'module' }),
  );
  let nextId = 1;
  return {
    run(input, mode, onPhase) {
      const request: LayoutRequest = { id: nextId++, input, mode };
      const slot = mode === 'auto' && shouldUseElk(input) ? elk : columns;
      let cancel = () => {};
      const promise = new Promise<LayoutResult>((resolve, reject) => {
        cancel = slot.run(request, { resolve, reject, onPhase });
      });
      return { promise, cancel: () => cancel() };
    },
    dispose() {
      elk.stop();
      columns.stop();
    },
  };
}

/** Runs in the calling thread: for tests (happy-dom has no Worker) and as a last resort. */
export function createInThreadRunner(elk?: ElkLike): LayoutRunner {
  return {
    run(input, mode, onPhase) {
      let cancelled = false;
      const promise = layoutTopology(input, { mode, onPhase, ...(elk ? { elk } : {}) }).then((r) => {
        if (cancelled) throw new LayoutCancelled();
        return r;
      });
      return {
        promise,
        cancel() {
          cancelled = true;
        },
      };
    },
    dispose() {},
  };
}

/** Where the page gets its runner from; tests provide an in-thread one. */
export const LayoutRunnerContext = createContext<() => LayoutRunner>(() =>
  typeof Worker === 'undefined' ? createInThreadRunner() : createWorkerRunner(),
);
