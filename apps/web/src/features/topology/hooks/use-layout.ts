import { useContext, useEffect, useRef, useState } from 'react';
import type { LayoutPhase } from '../layout/layout';
import { LayoutCancelled, LayoutRunnerContext } from '../layout/layout-runner';
import type { LayoutInput, LayoutResult } from '../layout/layout-types';

/** If elk has not finished by then, the columns layout (milliseconds) is used instead. */
export const ELK_TIMEOUT_MS = 8_000;

export type LayoutState =
  | { status: 'idle' }
  | { status: 'running'; signature: string; phase: LayoutPhase | null; startedAt: number }
  | { status: 'done'; signature: string; result: LayoutResult }
  | { status: 'error'; signature: string; message: string };

/**
 * Lays out the graph off the main thread whenever its shape (signature) changes; a refresh that
 * only changes states keeps the current positions.
 */
export function useLayout(input: LayoutInput | null, signature: string | null): LayoutState {
  const createRunner = useContext(LayoutRunnerContext);
  const [runner] = useState(createRunner);
  const [state, setState] = useState<LayoutState>({ status: 'idle' });
  const job = useRef<{ signature: string; cancel: () => void } | null>(null);

  useEffect(() => {
    if (!input || !signature || job.current?.signature === signature) return;
    job.current?.cancel();
    const startedAt = performance.now();
    setState({ status: 'running', signature, phase: null, startedAt });
    let live = true;
    const onPhase = (phase: LayoutPhase) => {
      if (live) setState({ status: 'running', signature, phase, startedAt });
    };
    let current = runner.run(input, 'auto', onPhase);
    const settle = (p: Promise<LayoutResult>) =>
      p.then(
        (result) => {
          if (!live) return;
          clearTimeout(timer);
          setState({ status: 'done', signature, result });
        },
        (err: unknown) => {
          if (!live || err instanceof LayoutCancelled) return;
          clearTimeout(timer);
          setState({ status: 'error', signature, message: err instanceof Error ? err.message : String(err) });
        },
      );
    const timer = setTimeout(() => {
      // elk is taking too long for this graph: stop it and draw columns.
      current.cancel();
      current = runner.run(input, 'columns', onPhase);
      void settle(current.promise);
    }, ELK_TIMEOUT_MS);
    void settle(current.promise);
    job.current = {
      signature,
      cancel: () => {
        live = false;
        clearTimeout(timer);
        current.cancel();
      },
    };
  }, [input, signature, runner]);

  useEffect(
    () => () => {
      job.current?.cancel();
      // Cleared so a StrictMode remount lays out again instead of waiting for a cancelled job.
      job.current = null;
      runner.dispose();
    },
    [runner],
  );

  return state;
}
