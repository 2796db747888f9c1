import { apiPaths, healthSchema } from '@sv/shared';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectivity } from '../../../lib/connectivity';
import { queryKeys } from '../../../lib/query-keys';
import { server } from '../../../testing/msw-server';
import { reconnectDelay, useLiveUpdates } from '../use-live-updates';

/** Stands in for the browser's EventSource: tests push events into it by hand. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  closed = false;
  readonly listeners = new Map<string, ((e: MessageEvent | Event) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent | Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data?: unknown) {
    const event =
      data === undefined ? new Event(type) : new MessageEvent(type, { data: JSON.stringify(data) });
    for (const fn of this.listeners.get(type) ?? []) fn(event);
  }
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  connectivity.reset();
});
afterEach(() => {
  connectivity.reset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function Probe({ fetches }: { fetches: Record<string, number> }) {
  useLiveUpdates({ batchMs: 0 });
  const volumes = useQuery({
    queryKey: queryKeys.volumes.list(false),
    queryFn: () => {
      fetches.volumes = (fetches.volumes ?? 0) + 1;
      return fetches.volumes;
    },
  });
  const servers = useQuery({
    queryKey: queryKeys.servers.list(false),
    queryFn: () => {
      fetches.servers = (fetches.servers ?? 0) + 1;
      return fetches.servers;
    },
  });
  return <p>{`volumes ${volumes.data} servers ${servers.data}`}</p>;
}

function mount() {
  const fetches: Record<string, number> = {};
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  const view = render(
    <QueryClientProvider client={qc}>
      <Probe fetches={fetches} />
    </QueryClientProvider>,
  );
  return { fetches, view };
}

describe('useLiveUpdates', () => {
  it('opens /api/events once and refetches what a change touches', async () => {
    const { fetches } = mount();
    await screen.findByText('volumes 1 servers 1');
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0]?.url).toBe('/api/events');

    act(() => FakeEventSource.instances[0]?.emit('change', { kind: 'volumes', ids: ['v1'], at: 'now' }));
    await screen.findByText('volumes 2 servers 1');

    act(() => FakeEventSource.instances[0]?.emit('change', { kind: 'attachments', ids: ['v1'], at: 'now' }));
    await screen.findByText('volumes 3 servers 2');
    // Anything that is not a ChangeEvent is ignored.
    act(() => FakeEventSource.instances[0]?.emit('change', { kind: 'nonsense' }));
    expect(fetches).toEqual({ volumes: 3, servers: 2 });
    // A launch's save refreshes the launch only; its servers and attachments come as their own events.
    act(() => FakeEventSource.instances[0]?.emit('change', { kind: 'launch', ids: ['l1'], at: 'now' }));
    act(() => FakeEventSource.instances[0]?.emit('change', { kind: 'servers', ids: ['s1'], at: 'now' }));
    await screen.findByText('volumes 3 servers 3');
    expect(fetches).toEqual({ volumes: 3, servers: 3 });
  });

  it('reconnects after an error and refreshes everything it may have missed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mount();
    await screen.findByText('volumes 1 servers 1');
    const first = FakeEventSource.instances[0];
    act(() => first?.emit('error'));
    expect(first?.closed).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1_300));
    expect(FakeEventSource.instances).toHaveLength(2);
    act(() => FakeEventSource.instances[1]?.emit('open'));
    await waitFor(() => expect(screen.getByText('volumes 2 servers 2')).toBeInTheDocument());
  });

  it('backs off 1, 2, 4 … 30 s between reconnects, a little longer at random', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map((n) => reconnectDelay(n, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(reconnectDelay(1, () => 0.999)).toBeLessThanOrEqual(1_250);
  });

  it('tells the banner while the stream is down, and reconnects at once when the server answers again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let serverUp = false;
    server.use(
      http.get(apiPaths.health, () =>
        serverUp
          ? HttpResponse.json(
              healthSchema.parse({
                status: 'ok',
                checks: { cloud: { status: 'ok', ms: 1 } },
                checkedAt: 'now',
              }),
            )
          : HttpResponse.error(),
      ),
    );
    connectivity.start({ healthyIntervalMs: 60_000, minBackoffMs: 1_000, maxBackoffMs: 1_000 });
    mount();
    await screen.findByText('volumes 1 servers 1');
    // Five drops in a row: the stream now waits about 16 s before its next try.
    for (let i = 0; i < 5; i++) {
      const es = FakeEventSource.instances.at(-1);
      act(() => es?.emit('error'));
      await act(() => vi.advanceTimersByTimeAsync(reconnectDelay(i + 1, () => 0.999) + 10));
    }
    act(() => FakeEventSource.instances.at(-1)?.emit('error'));
    expect(connectivity.getState()).toMatchObject({ server: false, liveUpdateFailures: 6 });
    const opened = FakeEventSource.instances.length;

    // The health watch finds the server back within its 1 s backoff: the stream does not wait 16 s more.
    serverUp = true;
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    expect(connectivity.getState().server).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(opened + 1);
    act(() => FakeEventSource.instances.at(-1)?.emit('open'));
    expect(connectivity.getState().liveUpdateFailures).toBe(0);
  });

  it('closes the stream on unmount (sign-out)', async () => {
    const { view } = mount();
    await screen.findByText('volumes 1 servers 1');
    view.unmount();
    expect(FakeEventSource.instances[0]?.closed).toBe(true);
  });
});
