import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LaunchWizard } from '../components/launch-wizard';
import { catalogRoutes, launch, mockBff, plan, renderAt, session } from './helpers';

afterEach(() => {
  vi.unstubAllGlobals();
});

const writersProblem = {
  field: 'acknowledgeMultipleWriters',
  message:
    'Volume dataset would be written by 4 servers at once (it already has read-write holders: writer-0). Two servers writing to one volume corrupt its data unless they run a cluster file system.',
};

describe('Review step: several writers on a shared volume', () => {
  it('asks for the acknowledgement the BFF requires and sends it with the plan and the launch', async () => {
    const { calls } = mockBff({
      ...catalogRoutes(),
      // As the BFF: read-write for several servers needs the acknowledgement.
      'POST /api/launches/plan': (body) =>
        (body as { acknowledgeMultipleWriters?: boolean }).acknowledgeMultipleWriters
          ? { body: plan() }
          : { body: plan({ ok: false, problems: [writersProblem] }) },
      'POST /api/launches': { status: 202, body: launch() },
    });
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
    await next();
    await screen.findByRole('heading', { level: 2, name: /Step 6 of 6: Review/ });

    expect(await screen.findByText(/would be written by 4 servers at once/)).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Launch 3 servers' });
    expect(button).toHaveProperty('disabled', true);

    await user.click(
      screen.getByRole('checkbox', {
        name: 'The servers use a cluster file system; give them read-write anyway',
      }),
    );
    expect(await screen.findByText('Ready to launch.')).toBeTruthy();
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
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
