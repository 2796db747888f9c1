import { type ApiErrorCode, apiErrorSchema, apiPaths, healthSchema } from '@sv/shared';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionBanner } from '../../components/ui/connection-banner';
import { ErrorMessage } from '../../components/ui/error-message';
import { server } from '../../testing/msw-server';
import { api } from '../api-client';
import { connectivity } from '../connectivity';
import { createQueryClient } from '../query-client';
import { useConnectivityWatch } from '../use-connectivity';

// Issue 11 finding 10: while the cloud is down the signed-in frame says so ("data shown may be out of
// date"); queries retry transient failures with backoff, then show the error with its request id; when
// the cloud answers again the banner goes and the failed page loads, with nobody clicking anything.

const REQUEST_ID = 'req-3c1a42f4-613d-43f1-9b64-a83a0f1e6de9';
let cloudUp = true;
const calls: string[] = [];

const health = (cloud: boolean) =>
  HttpResponse.json(
    healthSchema.parse({
      status: cloud ? 'ok' : 'unavailable',
      checks: { cloud: { status: cloud ? 'ok' : 'unreachable', ms: 1 } },
      checkedAt: '2026-01-01T00:00:00Z',
    }),
    { status: cloud ? 200 : 503 },
  );

const refusal = (
  status: number,
  code: ApiErrorCode,
  message: string,
  more: { details?: object; requestId?: string } = {},
) =>
  HttpResponse.json(apiErrorSchema.parse({ error: { code, message, ...more } }), {
    status,
    ...(more.requestId ? { headers: { 'X-Request-Id': more.requestId } } : {}),
  });

/** Every other path answers `{ name: <path> }`, what the test page shows. */
const page = (path: string) => HttpResponse.json({ name: path });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  cloudUp = true;
  calls.length = 0;
  connectivity.reset();
  server.events.on('request:start', ({ request }) => {
    calls.push(new URL(request.url).pathname);
  });
  server.use(
    http.get(apiPaths.health, () => health(cloudUp)),
    http.get('/api/*', ({ request }) =>
      cloudUp
        ? page(new URL(request.url).pathname)
        : refusal(503, 'cloud_unreachable', 'The cloud cannot be reached right now. Try again in a moment.', {
            details: { service: 'compute' },
            requestId: REQUEST_ID,
          }),
    ),
  );
});
afterEach(() => {
  connectivity.reset();
  vi.useRealTimers();
});

function Page({ path }: { path: string }) {
  const q = useQuery({ queryKey: [path], queryFn: () => api('GET', path, z.object({ name: z.string() })) });
  if (q.isPending) return <p>Loading {path}</p>;
  if (q.isError) return <ErrorMessage title={`${path} could not be loaded`} error={q.error} />;
  return <p>Loaded {q.data.name}</p>;
}

function Frame({ paths }: { paths: string[] }) {
  useConnectivityWatch({ healthyIntervalMs: 10_000, minBackoffMs: 1_000, maxBackoffMs: 5_000 });
  return (
    <>
      <ConnectionBanner />
      {paths.map((p) => (
        <Page key={p} path={p} />
      ))}
    </>
  );
}

const count = (path: string) => calls.filter((c) => c === path).length;

describe('when the cloud goes away and comes back', () => {
  it('shows the banner on an open page, keeps its data, and clears the banner by itself', async () => {
    const qc = createQueryClient();
    render(
      <QueryClientProvider client={qc}>
        <Frame paths={['/api/volumes']} />
      </QueryClientProvider>,
    );
    await screen.findByText('Loaded /api/volumes');
    expect(screen.getByRole('status')).toHaveTextContent('');

    cloudUp = false;
    // Nobody does anything: the next health look (10 s) finds the cloud gone.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByRole('status')).toHaveTextContent(
      'The cloud cannot be reached right now. The data shown may be out of date',
    );
    expect(screen.getByText('Loaded /api/volumes')).toBeInTheDocument();

    cloudUp = true;
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('retries a failed page with backoff, shows the error with its request id, and loads it when the cloud is back', async () => {
    const qc = createQueryClient();
    cloudUp = false;
    render(
      <QueryClientProvider client={qc}>
        <Frame paths={['/api/servers']} />
      </QueryClientProvider>,
    );
    // The failure makes the watch look at once: the banner is up while the query still retries.
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByRole('status')).toHaveTextContent('The cloud cannot be reached right now.');
    expect(screen.getByText('Loading /api/servers')).toBeInTheDocument();
    expect(count('/api/servers')).toBe(1);

    // Three retries after about 1, 2 and 4 s (each up to a quarter longer), then the error.
    await act(() => vi.advanceTimersByTimeAsync(1_300));
    expect(count('/api/servers')).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(2_600));
    expect(count('/api/servers')).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(5_100));
    expect(count('/api/servers')).toBe(4);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The cloud cannot be reached right now. Try again in a moment.');
    expect(alert).toHaveTextContent(`Request ID${REQUEST_ID}`);
    expect(count('/api/servers')).toBe(4);

    cloudUp = true;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await screen.findByText('Loaded /api/servers');
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('createQueryClient', () => {
  it('does not retry what asking again cannot cure', async () => {
    const qc = createQueryClient();
    server.use(
      http.get(apiPaths.health, () => health(true)),
      http.get('/api/bug', () => refusal(500, 'internal', 'no')),
      http.get('/api/missing', () => refusal(404, 'not_found', 'no')),
    );
    render(
      <QueryClientProvider client={qc}>
        <Page path="/api/bug" />
        <Page path="/api/missing" />
      </QueryClientProvider>,
    );
    await screen.findByText('/api/bug could not be loaded');
    await screen.findByText('/api/missing could not be loaded');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(count('/api/bug')).toBe(1);
    expect(count('/api/missing')).toBe(1);
  });
});
