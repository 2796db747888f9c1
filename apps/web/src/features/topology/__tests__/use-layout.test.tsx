import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ELK_TIMEOUT_MS, useLayout } from '../hooks/use-layout';
import { columnsLayout } from '../layout/layout';
import { LayoutCancelled, type LayoutRunner, LayoutRunnerContext } from '../layout/layout-runner';
import type { LayoutInput } from '../layout/layout-types';

const input: LayoutInput = {
  hosts: [{ id: 'h1', serverCount: 1 }],
  servers: [{ id: 's1', name: 'a', host: 'h1' }],
  volumes: [{ id: 'v1', name: 'v' }],
  edges: [{ server: 's1', volume: 'v1' }],
};

/** elk never answers; the columns layout answers at once. */
function stuckElkRunner() {
  const runs: string[] = [];
  let cancelled = 0;
  const runner: LayoutRunner = {
    run(i, mode, onPhase) {
      runs.push(mode);
      if (mode === 'auto') {
        onPhase('elk-layered');
        let reject: (e: Error) => void = () => {};
        const promise = new Promise<never>((_, r) => {
          reject = r;
        });
        return {
          promise,
          cancel: () => {
            cancelled++;
            reject(new LayoutCancelled());
          },
        };
      }
      onPhase('columns');
      return { promise: Promise.resolve(columnsLayout(i, 'elk took too long')), cancel: () => {} };
    },
    dispose() {},
  };
  return { runner, runs, cancelled: () => cancelled };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('useLayout', () => {
  it('drops elk for the columns layout when elk takes too long', async () => {
    vi.useFakeTimers();
    const { runner, runs, cancelled } = stuckElkRunner();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <LayoutRunnerContext.Provider value={() => runner}>{children}</LayoutRunnerContext.Provider>
    );
    const { result } = renderHook(() => useLayout(input, 'sig-1'), { wrapper });
    expect(result.current).toMatchObject({ status: 'running', phase: 'elk-layered' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ELK_TIMEOUT_MS + 10);
    });
    vi.useRealTimers();
    await waitFor(() => expect(result.current.status).toBe('done'));
    expect(result.current.status === 'done' && result.current.result.algorithm).toBe('columns');
    expect(runs).toEqual(['auto', 'columns']);
    expect(cancelled()).toBe(1);
  });

  it('keeps the layout when only states change (same signature)', async () => {
    const { runner, runs } = stuckElkRunner();
    const columnsOnly: LayoutRunner = {
      ...runner,
      run: (i, _mode, onPhase) => runner.run(i, 'columns', onPhase),
    };
    const wrapper = ({ children }: { children: ReactNode }) => (
      <LayoutRunnerContext.Provider value={() => columnsOnly}>{children}</LayoutRunnerContext.Provider>
    );
    const { result, rerender } = renderHook(({ i, sig }) => useLayout(i, sig), {
      wrapper,
      initialProps: { i: input, sig: 'sig-1' },
    });
    await waitFor(() => expect(result.current.status).toBe('done'));
    rerender({ i: { ...input }, sig: 'sig-1' });
    expect(result.current.status).toBe('done');
    expect(runs).toHaveLength(1);
    rerender({ i: { ...input, volumes: [] }, sig: 'sig-2' });
    await waitFor(() => expect(result.current.status === 'done' && result.current.signature).toBe('sig-2'));
    expect(runs).toHaveLength(2);
  });
});
