import { apiPaths, launchListSchema, type LaunchServerProgress } from '@sv/shared';
import { screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { bff } from '../../../testing/bff';
import { server as network } from '../../../testing/msw-server';
import { LaunchesPage } from '../components/launches-page';
import { launch, renderAt, session } from './helpers';

const srv = (index: number, state: LaunchServerProgress['state']): LaunchServerProgress => ({
  index,
  name: `n-${index + 1}`,
  serverId: `s-${index + 1}`,
  state,
  status: null,
  host: null,
  attachments: [],
  error: null,
});

describe('Launches page', () => {
  it("lists the project's launches newest first with outcome, counts, when, and a link to each", async () => {
    network.use(
      bff.get(apiPaths.launches, launchListSchema, {
        launches: [
          launch({
            id: 'L2',
            status: 'interrupted',
            startedAt: '2026-01-02T00:00:00Z',
            request: {
              name: 'db',
              count: 2,
              flavorId: '1',
              boot: { source: 'image', imageId: 'img-1' },
              dataVolumes: [],
              acknowledgeMultipleWriters: false,
            },
            servers: [srv(0, 'active'), srv(1, 'failed')],
          }),
          launch({
            id: 'L1',
            status: 'succeeded',
            request: {
              name: 'web',
              count: 1,
              flavorId: '1',
              boot: { source: 'image', imageId: 'img-1' },
              dataVolumes: [],
              acknowledgeMultipleWriters: false,
            },
            servers: [srv(0, 'active')],
          }),
        ],
      }),
    );
    renderAt('/launches', <Route path="/launches" element={<LaunchesPage session={session()} />} />);
    const table = await screen.findByRole('table', { name: 'Launches' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: '2 × db' }).getAttribute('href')).toBe('/launches/L2');
    expect(within(rows[0]!).getByText('interrupted')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('1 of 2 active, 1 failed')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('link', { name: 'web' }).getAttribute('href')).toBe('/launches/L1');
    expect(within(rows[1]!).getByText('succeeded')).toBeInTheDocument();
  });

  it('says when there is no launch yet', async () => {
    network.use(bff.get(apiPaths.launches, launchListSchema, { launches: [] }));
    renderAt('/launches', <Route path="/launches" element={<LaunchesPage session={session()} />} />);
    expect(await screen.findByText('No launches yet')).toBeInTheDocument();
  });
});
