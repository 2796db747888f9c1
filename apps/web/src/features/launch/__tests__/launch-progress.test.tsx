import { apiPaths, type LaunchServerProgress, launchSchema } from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { connectivity } from '../../../lib/connectivity';
import { bff, bffError } from '../../../testing/bff';
import { server as network } from '../../../testing/msw-server';
import { LaunchProgressPage } from '../components/launch-progress-page';
import { catalogHandlers, launch, renderAt } from './helpers';

function server(index: number, over: Partial<LaunchServerProgress>): LaunchServerProgress {
  return {
    index,
    name: `web-${index + 1}`,
    serverId: `srv-${index + 1}`,
    state: 'active',
    status: 'ACTIVE',
    host: null,
    attachments: [{ volumeId: 'v-shared-data', mode: 'ro', state: 'attached', device: '/dev/vdb' }],
    error: null,
    ...over,
  };
}

const renderProgress = () =>
  renderAt('/launches/L1', <Route path="/launches/:id" element={<LaunchProgressPage />} />);

describe('Launch progress view', () => {
  it('ends a partial failure with what was created (linked) and what failed and why', async () => {
    network.use(
      ...catalogHandlers(),
      bff.get(
        apiPaths.launch('L1'),
        launchSchema,
        launch({
          status: 'partial',
          finishedAt: '2026-01-01T00:01:00Z',
          summary: '2 of 4 servers active; 2 failed (No valid host was found.).',
          servers: [
            server(0, { host: 'compute-1' }),
            server(1, {}),
            server(2, {
              state: 'failed',
              status: 'ACTIVE',
              error: 'Attaching volume v-shared-data failed: the compute host cannot share disks.',
              attachments: [{ volumeId: 'v-shared-data', mode: 'ro', state: 'failed', device: null }],
            }),
            server(3, {
              serverId: null,
              state: 'failed',
              status: null,
              error: 'No valid host was found.',
              attachments: [{ volumeId: 'v-shared-data', mode: 'ro', state: 'failed', device: null }],
            }),
          ],
        }),
      ),
    );
    renderProgress();

    const outcome = await screen.findByRole('alert');
    expect(within(outcome).getByText('2 of 4 servers active; 2 failed')).toBeInTheDocument();
    const created = within(outcome).getByRole('heading', { name: 'Created (3)' }).parentElement!;
    expect(within(created).getByRole('link', { name: 'web-1' }).getAttribute('href')).toBe('/servers/srv-1');
    expect(within(created).getByRole('link', { name: 'web-3' }).getAttribute('href')).toBe('/servers/srv-3');
    expect(within(created).getByText(/running, without all its volumes/)).toBeInTheDocument();
    const failed = within(outcome).getByRole('heading', { name: 'Failed (2)' }).parentElement!;
    expect(within(failed).getByText(/the compute host cannot share disks/)).toBeInTheDocument();
    expect(within(failed).getByText(/No valid host was found/)).toBeInTheDocument();

    // One row per server, with host and each attachment's mode and name.
    const table = screen.getByRole('table', { name: /Servers in this launch/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByText('compute-1')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('read-only')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('dataset')).toBeInTheDocument();
    expect(within(rows[3]!).queryByRole('link')).toBeNull();
  });

  it('polls slowly while the live-update stream is down and ends with "N of N servers active"', async () => {
    let calls = 0;
    const running = launch({
      servers: [
        server(0, {}),
        server(1, { state: 'building', status: 'BUILD', attachments: [] }),
        server(2, { state: 'pending', serverId: null, status: null }),
      ],
    });
    const done = launch({
      status: 'succeeded',
      finishedAt: '2026-01-01T00:01:00Z',
      summary: 'All 3 servers are active.',
      servers: [server(0, {}), server(1, {}), server(2, {})],
    });
    network.use(
      ...catalogHandlers(),
      bff.get(apiPaths.launch('L1'), launchSchema, () => {
        calls += 1;
        return calls === 1 ? running : done;
      }),
    );
    renderProgress();

    expect(await screen.findByText(/1 of 3 servers active/)).toBeInTheDocument();
    expect(screen.getByText(/2 in progress/)).toBeInTheDocument();
    expect(screen.getByText(/asks again every few seconds/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('3 of 3 servers active')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByRole('status').textContent).toContain('Each has its volume attached.');
    // Finished: no more polling.
    const settled = calls;
    await new Promise((r) => setTimeout(r, 1_300));
    expect(calls).toBe(settled);
  }, 10_000);

  it('does not poll while the live-update stream is open: the stream brings the changes', async () => {
    let calls = 0;
    connectivity.liveUpdatesOpened();
    try {
      network.use(
        ...catalogHandlers(),
        bff.get(apiPaths.launch('L1'), launchSchema, () => {
          calls += 1;
          return launch({ servers: [server(0, { state: 'building', status: 'BUILD', attachments: [] })] });
        }),
      );
      renderProgress();
      expect(await screen.findByText(/0 of 1 server active/)).toBeInTheDocument();
      expect(screen.getByText('This page updates live as each server finishes.')).toBeInTheDocument();
      // Nova's BUILD would only repeat "building": shown once.
      expect(screen.queryByText('BUILD')).toBeNull();
      await new Promise((r) => setTimeout(r, 3_500));
      expect(calls).toBe(1);
    } finally {
      connectivity.liveUpdatesStopped();
    }
  }, 10_000);

  it('deletes the failed servers in one action and shows what it did to each', async () => {
    const failedServer = server(1, {
      state: 'failed',
      status: 'ERROR',
      error: 'No valid host was found. There are not enough hosts available.',
      attachments: [],
    });
    const partial = launch({
      status: 'partial',
      finishedAt: '2026-01-01T00:01:00Z',
      servers: [server(0, { attachments: [] }), failedServer],
    });
    let deleted = false;
    network.use(
      ...catalogHandlers(),
      bff.get(apiPaths.launch('L1'), launchSchema, () => partial),
      bff.post(apiPaths.launchDeleteFailed('L1'), launchSchema, () => {
        deleted = true;
        return launch({
          ...partial,
          servers: [server(0, { attachments: [] }), { ...failedServer, removal: 'deleting' }],
          actions: [
            {
              kind: 'delete-failed',
              at: '2026-01-01T00:02:00Z',
              results: [{ index: 1, name: 'web-2', serverId: 'srv-2', outcome: 'Deleting', ok: true }],
            },
          ],
        });
      }),
    );
    renderProgress();
    expect(await screen.findByRole('button', { name: 'Retry the failed one' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Delete the failed server (1)' }));
    expect(await screen.findByRole('heading', { name: 'What was done' })).toBeInTheDocument();
    expect(deleted).toBe(true);
    expect(screen.getByText('Deleted the failed servers', { exact: false })).toBeInTheDocument();
    expect(screen.getByText(': Deleting', { exact: false })).toBeInTheDocument();
  });

  it('says so when the launch does not exist', async () => {
    network.use(
      ...catalogHandlers(),
      bff.get(apiPaths.launch('L1'), launchSchema, bffError(404, 'not_found', 'There is no such launch.')),
    );
    renderProgress();
    expect(await screen.findByText('There is no such launch in this project')).toBeInTheDocument();
  });
});
