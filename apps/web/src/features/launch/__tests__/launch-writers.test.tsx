import { apiPaths, launchPlanSchema, launchSchema } from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { bff, recordRequests } from '../../../testing/bff';
import { server } from '../../../testing/msw-server';
import { LaunchWizard } from '../components/launch-wizard';
import { catalogHandlers, launch, plan, renderAt, session } from './helpers';

// A walk through the wizard's nine steps is many clicks: more than the default 5 s on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

const writersProblem = {
  field: 'acknowledgeMultipleWriters',
  message:
    'Volume dataset would be written by 4 servers at once (it already has read-write holders: writer-0). Two servers writing to one volume corrupt its data unless they run a cluster file system.',
};

describe('Review step: several writers on a shared volume', () => {
  it('asks for the acknowledgement the BFF requires and sends it with the plan and the launch', async () => {
    server.use(
      ...catalogHandlers(),
      // As the BFF: read-write for several servers needs the acknowledgement.
      bff.post(apiPaths.launchPlan, launchPlanSchema, ({ body }) =>
        (body as { acknowledgeMultipleWriters?: boolean }).acknowledgeMultipleWriters
          ? plan()
          : plan({ ok: false, problems: [writersProblem] }),
      ),
      bff.post(apiPaths.launches, launchSchema, launch(), { status: 202 }),
    );
    const calls = recordRequests();
    const user = userEvent.setup();
    renderAt('/launch', [
      <Route key="w" path="/launch" element={<LaunchWizard session={session()} />} />,
      <Route key="p" path="/launches/:id" element={<p>progress page</p>} />,
    ]);

    await user.type(screen.getByLabelText('Server name'), 'web');
    const count = screen.getByLabelText('Number of servers');
    await user.clear(count);
    await user.type(count, '3');
    const next = () => user.click(screen.getByRole('button', { name: /^Next:/ }));
    await next();
    await user.click(await screen.findByLabelText('m1.tiny'));
    await next();
    await user.click(await screen.findByLabelText('cirros'));
    await next();
    await user.click(await screen.findByRole('checkbox', { name: /dataset/ }));
    // The wizard proposes read-only for a second writer; the user insists on read-write.
    await user.click(
      within(screen.getByRole('group', { name: 'Access to dataset' })).getByRole('radio', {
        name: /Read-write/,
      }),
    );
    await next();
    // Zone, networks, security groups and key pair as they come.
    for (const step of ['Availability zone', 'Networks', 'Security groups', 'Key pair']) {
      await screen.findByRole('heading', { level: 2, name: new RegExp(`of 9: ${step}`) });
      await next();
    }
    await screen.findByRole('heading', { level: 2, name: /Step 9 of 9: Review/ });

    expect(await screen.findByText(/would be written by 4 servers at once/)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Launch 3 servers' });
    expect(button).toBeDisabled();

    await user.click(
      screen.getByRole('checkbox', {
        name: 'The servers use a cluster file system; give them read-write anyway',
      }),
    );
    expect(await screen.findByText('Ready to launch.')).toBeInTheDocument();
    await waitFor(() => expect(button).toBeEnabled());
    const plans = calls.filter((c) => c.path === '/api/launches/plan');
    expect(plans.at(-1)?.body).toMatchObject({
      dataVolumes: [{ volumeId: 'v-shared-data', mode: 'rw' }],
      acknowledgeMultipleWriters: true,
    });

    await user.click(button);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/launches/L1'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/launches')?.body).toMatchObject({
      acknowledgeMultipleWriters: true,
    });
  });
});
