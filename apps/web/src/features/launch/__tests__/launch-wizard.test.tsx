import { apiPaths, imageListSchema, launchPlanSchema, launchSchema, type Session } from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { Route } from 'react-router';
import type { RequestHandler } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { server } from '../../../testing/msw-server';
import { LaunchWizard } from '../components/launch-wizard';
import { catalogHandlers, launch, plan, renderAt, session } from './helpers';

// A walk through the wizard's nine steps is many clicks: more than the default 5 s on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

function start(s: Session = session(), extra: RequestHandler[] = []) {
  // The first handler for a request answers it: a test's own go before the catalog's.
  server.use(...extra, ...catalogHandlers());
  const calls = recordRequests();
  const user = userEvent.setup();
  renderAt('/launch', [
    <Route key="w" path="/launch" element={<LaunchWizard session={s} />} />,
    <Route key="p" path="/launches/:id" element={<p>progress page</p>} />,
  ]);
  return { user, calls };
}

const stepHeading = (n: number, title: string) =>
  screen.findByRole('heading', { level: 2, name: new RegExp(`Step ${n} of 9: ${title}`) });

const next = (user: UserEvent) => user.click(screen.getByRole('button', { name: /^Next:/ }));

async function details(user: UserEvent, name = 'web', count = '1') {
  await user.type(screen.getByLabelText('Server name'), name);
  const countInput = screen.getByLabelText('Number of servers');
  await user.clear(countInput);
  await user.type(countInput, count);
  await next(user);
  await stepHeading(2, 'Flavor');
}

async function flavor(user: UserEvent) {
  await user.click(await screen.findByLabelText('m1.tiny'));
  await next(user);
  await stepHeading(3, 'Boot source');
}

async function bootFromImage(user: UserEvent) {
  await user.click(await screen.findByLabelText('cirros'));
  await next(user);
  await stepHeading(4, 'Data volumes');
}

async function setCount(user: UserEvent, count: string) {
  await user.click(screen.getByRole('button', { name: /Step 1: Details/ }));
  await stepHeading(1, 'Details');
  const countInput = screen.getByLabelText('Number of servers');
  await user.clear(countInput);
  await user.type(countInput, count);
}

describe('Details step', () => {
  it('validates name and count as you type, next to the fields, and will not advance with errors', async () => {
    const { user } = start();
    await stepHeading(1, 'Details');
    const name = screen.getByLabelText('Server name');

    await user.type(name, '-bad');
    expect(await screen.findByText('Letters, digits, dot, dash and underscore only')).toBeInTheDocument();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name).toHaveAccessibleDescription(
      expect.stringContaining('Letters, digits, dot, dash and underscore only'),
    );

    await user.clear(name);
    await next(user);
    expect(await screen.findByText('Give the servers a name')).toBeInTheDocument();
    await stepHeading(1, 'Details');

    const count = screen.getByLabelText('Number of servers');
    await user.clear(count);
    await user.type(count, '0');
    expect(await screen.findByText('Launch between 1 and 200 servers at once')).toBeInTheDocument();
    await user.clear(count);
    await user.type(count, '201');
    expect(await screen.findByText('Launch between 1 and 200 servers at once')).toBeInTheDocument();
    expect(count).toHaveAccessibleDescription(
      expect.stringContaining('Launch between 1 and 200 servers at once'),
    );
  });

  it('moves on with Enter from a field, like Next', async () => {
    const { user } = start();
    await stepHeading(1, 'Details');
    await user.type(screen.getByLabelText('Server name'), 'web{Enter}');
    await stepHeading(2, 'Flavor');
  });

  it('moves on when valid, marking the new step as current', async () => {
    const { user } = start();
    await stepHeading(1, 'Details');
    await details(user, 'web', '3');
    const stepper = screen.getByRole('navigation', { name: 'Launch steps' });
    expect(
      within(stepper)
        .getByRole('button', { name: /Step 2: Flavor/ })
        .getAttribute('aria-current'),
    ).toBe('step');
    expect(
      within(stepper)
        .getByRole('button', { name: /Step 1: Details/ })
        .getAttribute('aria-current'),
    ).toBeNull();
    // Steps not reached yet cannot be jumped to.
    expect(within(stepper).getByRole('button', { name: /Step 9: Review/ })).toBeDisabled();
  });
});

describe('Flavor step', () => {
  it('requires a flavor', async () => {
    const { user } = start();
    await details(user);
    await next(user);
    expect(await screen.findByText('Choose a flavor')).toBeInTheDocument();
    await stepHeading(2, 'Flavor');
    await flavor(user);
  });
});

describe('Boot source step', () => {
  it('requires an image when booting from one', async () => {
    const { user } = start(session(), [
      bff.get(apiPaths.images, imageListSchema, {
        images: [
          { id: 'img-1', name: 'cirros', status: 'active', sizeBytes: 1 },
          { id: 'img-2', name: 'ubuntu', status: 'active', sizeBytes: 1 },
        ],
      }),
    ]);
    await details(user);
    await flavor(user);
    await next(user);
    expect(await screen.findByText('Choose an image')).toBeInTheDocument();
    await stepHeading(3, 'Boot source');
  });

  it('marks shared volumes, and disables plain ones with the reason when launching several', async () => {
    const { user } = start();
    await details(user, 'web', '3');
    await flavor(user);
    await user.click(screen.getByLabelText(/A bootable volume/));
    const shared = await screen.findByRole('radio', { name: /golden-root/ });
    expect(within(shared.closest('tr')!).getByText('Shared')).toBeInTheDocument();
    const plain = screen.getByRole('radio', { name: /my-root/ });
    expect(plain).toBeDisabled();
    expect(plain).toHaveAccessibleDescription(
      /Not shared: only one server can use it, and you are launching 3/,
    );

    await next(user);
    expect(await screen.findByText('Choose a volume')).toBeInTheDocument();
    await user.click(shared);
    // A shared boot volume gets a mode choice, read-only first for 3 servers; read-write raises
    // the two-writers risk.
    expect(screen.getByRole('group', { name: /How the servers get golden-root/ })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Read-only/ })).toHaveProperty('checked', true);
    expect(screen.queryByText(/would write to golden-root/)).toBeNull();
    await user.click(screen.getByRole('radio', { name: /Read-write/ }));
    expect(screen.getByText(/3 servers would write to golden-root at the same time/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Read-only/ }));
    expect(screen.queryByText(/would write to golden-root/)).toBeNull();
    await next(user);
    await stepHeading(4, 'Data volumes');
  });

  it('disables read-only with the reason when the cloud cannot attach read-only', async () => {
    const reason = "This cloud's compute API stops at 2.104; read-only attachments need 2.105.";
    const { user } = start(session({ available: false, reason }));
    await details(user, 'web', '2');
    await flavor(user);
    await user.click(screen.getByLabelText(/A bootable volume/));
    await user.click(await screen.findByRole('radio', { name: /golden-root/ }));
    const ro = screen.getByRole('radio', { name: /Read-only/ });
    expect(ro).toBeDisabled();
    expect(ro).toHaveAccessibleDescription(expect.stringContaining(reason));
    expect(screen.getByRole('radio', { name: /Read-write/ })).toHaveProperty('checked', true);
  });

  it('explains a plain boot volume once the count goes above 1, and will not advance', async () => {
    const { user } = start();
    await details(user, 'web', '1');
    await flavor(user);
    await user.click(screen.getByLabelText(/A bootable volume/));
    await user.click(await screen.findByRole('radio', { name: /my-root/ }));
    await next(user);
    await stepHeading(4, 'Data volumes');

    await setCount(user, '4');
    expect(screen.getByText(/my-root is not shared, so only one server can use it/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Step 3: Boot source/ }));
    await stepHeading(3, 'Boot source');
    const message = await screen.findByText(/my-root is not shared \(multiattach\).*this launch makes 4/);
    const radio = screen.getByRole('radio', { name: /my-root/ });
    expect(radio.getAttribute('aria-invalid')).toBe('true');
    expect(radio).toHaveAccessibleDescription(expect.stringContaining(message.textContent ?? ''));
    await next(user);
    await stepHeading(3, 'Boot source');
  });
});

describe('Data volumes step', () => {
  it('offers plain volumes only for one server, and says why not otherwise', async () => {
    const { user } = start();
    await details(user, 'web', '3');
    await flavor(user);
    await bootFromImage(user);
    expect(screen.getByRole('checkbox', { name: /dataset/ })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /scratch/ })).toBeNull();
    const others = screen.getByText(/volumes? that cannot be added/).closest('details')!;
    const scratch = within(others).getByText('scratch').closest('li')!;
    expect(scratch.textContent).toMatch(/Not shared: only one server can use it, and you are launching 3/);
  });

  it('defaults a second writer to read-only and warns about two writers when switched to read-write', async () => {
    const { user } = start();
    await details(user, 'web', '2');
    await flavor(user);
    await bootFromImage(user);
    await user.click(screen.getByRole('checkbox', { name: /dataset/ }));
    const modes = screen.getByRole('group', { name: 'Access to dataset' });
    expect(within(modes).getByRole('radio', { name: 'Read-only' })).toHaveProperty('checked', true);
    await user.click(within(modes).getByRole('radio', { name: 'Read-write' }));
    expect(screen.getByText(/3 servers would write to dataset at the same time/)).toBeInTheDocument();
    expect(screen.getByText(/already has a read-write holder \(writer-0\)/)).toBeInTheDocument();
    expect(
      screen.getByText(/Choose read-only here, and give write access to one server only/),
    ).toBeInTheDocument();
  });

  it('disables read-only with its reason for data volumes too', async () => {
    const reason = "This cloud's compute API stops at 2.104; read-only attachments need 2.105.";
    const { user } = start(session({ available: false, reason }));
    await details(user, 'web', '1');
    await flavor(user);
    await bootFromImage(user);
    await user.click(screen.getByRole('checkbox', { name: /scratch/ }));
    const modes = screen.getByRole('group', { name: 'Access to scratch' });
    const ro = within(modes).getByRole('radio', { name: 'Read-only' });
    expect(ro).toBeDisabled();
    expect(ro).toHaveAccessibleDescription(expect.stringContaining(reason));
  });

  it('flags a plain data volume picked for one server once the count grows', async () => {
    const { user } = start();
    await details(user, 'web', '1');
    await flavor(user);
    await bootFromImage(user);
    await user.click(screen.getByRole('checkbox', { name: /scratch/ }));
    await next(user);
    await stepHeading(5, 'Availability zone');

    await setCount(user, '2');
    await user.click(screen.getByRole('button', { name: /Step 4: Data volumes/ }));
    await stepHeading(4, 'Data volumes');
    const box = await screen.findByRole('checkbox', { name: /scratch/ });
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(box).toHaveAccessibleDescription(/scratch is not shared \(multiattach\).*this launch makes 2/);
    await next(user);
    await stepHeading(4, 'Data volumes');
    // Unticking it clears the way.
    await user.click(box);
    await next(user);
    await stepHeading(5, 'Availability zone');
  });
});

describe('Availability zone step', () => {
  it('defaults to any zone and warns when a chosen volume lives in another zone', async () => {
    const { user } = start();
    await details(user, 'web', '2');
    await flavor(user);
    await bootFromImage(user);
    await user.click(screen.getByRole('checkbox', { name: /dataset/ }));
    await next(user);
    await stepHeading(5, 'Availability zone');
    const zone = screen.getByLabelText('Availability zone', { selector: 'select' });
    expect((zone as HTMLSelectElement).value).toBe('');
    await user.selectOptions(zone, 'zone-b');
    expect(screen.getByText(/dataset is in zone nova/)).toBeInTheDocument();
  });
});

async function toReview(user: UserEvent) {
  await details(user, 'web', '3');
  await flavor(user);
  await bootFromImage(user);
  await user.click(screen.getByRole('checkbox', { name: /dataset/ }));
  await next(user);
  await stepHeading(5, 'Availability zone');
  await user.selectOptions(screen.getByLabelText('Availability zone', { selector: 'select' }), 'nova');
  await next(user);
  await throughNetworkSteps(user);
}

/** Networks, security groups and key pair as preselected: the one network, `default`, the one key. */
async function throughNetworkSteps(user: UserEvent) {
  await stepHeading(6, 'Networks');
  await next(user);
  await stepHeading(7, 'Security groups');
  await next(user);
  await stepHeading(8, 'Key pair');
  await next(user);
  await stepHeading(9, 'Review');
}

describe('Review step', () => {
  it('shows the pre-flight strategy, its reason and the requests, then launches and opens the progress view', async () => {
    const { user, calls } = start(session(), [
      bff.post(apiPaths.launchPlan, launchPlanSchema, plan()),
      bff.post(apiPaths.launches, launchSchema, launch(), { status: 202 }),
    ]);
    await toReview(user);
    expect(await screen.findByText('Ready to launch.')).toBeInTheDocument();
    expect(screen.getByText(/One request for all 3 servers/)).toBeInTheDocument();
    expect(
      screen.getByText('One request creates every server on the shared volume (compute 2.105).'),
    ).toBeTruthy();
    expect(screen.getByText(/POST \/servers at compute 2\.105 \(min_count=max_count=3/)).toBeInTheDocument();
    // The API's words are in a details area, closed until asked for.
    const details = screen.getByText(/POST \/servers at compute 2\.105/).closest('details');
    expect(details).not.toBeNull();
    expect(details).not.toHaveAttribute('open');
    expect(
      screen
        .getByText('One request creates every server on the shared volume (compute 2.105).')
        .closest('details'),
    ).toBe(details);

    const planCall = calls.find((c) => c.path === '/api/launches/plan');
    expect(planCall?.body).toEqual({
      name: 'web',
      count: 3,
      flavorId: '1',
      boot: { source: 'image', imageId: 'img-1' },
      dataVolumes: [{ volumeId: 'v-shared-data', mode: 'ro' }],
      availabilityZone: 'nova',
      networks: ['net-private'],
      securityGroups: ['sg-default'],
      keyName: 'demo-key',
      acknowledgeMultipleWriters: false,
    });

    const button = screen.getByRole('button', { name: 'Launch 3 servers' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/launches/L1'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/launches')?.body).toEqual(
      planCall?.body,
    );
  });

  it('lists the problems that block the launch, disables it, and links to the step that fixes them', async () => {
    const { user, calls } = start(session(), [
      bff.post(
        apiPaths.launchPlan,
        launchPlanSchema,
        plan({
          ok: false,
          problems: [
            {
              field: 'dataVolumes.0.volumeId',
              message: 'Volume dataset is error; it must be available or in use.',
            },
          ],
        }),
      ),
    ]);
    await toReview(user);
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('Volume dataset is error; it must be available or in use.'),
    ).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Launch 3 servers' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(/blocked until the problems above are solved/);

    await user.click(within(alert).getByRole('button', { name: 'Fix in Data volumes' }));
    await stepHeading(4, 'Data volumes');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/launches')).toBe(false);
  });

  it('shows the problems the BFF names when it refuses the launch', async () => {
    const { user } = start(session(), [
      bff.post(apiPaths.launchPlan, launchPlanSchema, plan()),
      bff.post(
        apiPaths.launches,
        launchSchema,
        bffError(400, 'launch_not_possible', 'Volume dataset is detaching; it must be available or in use.', {
          fields: {
            'dataVolumes.0.volumeId': 'Volume dataset is detaching; it must be available or in use.',
          },
          problems: [
            {
              field: 'dataVolumes.0.volumeId',
              message: 'Volume dataset is detaching; it must be available or in use.',
            },
          ],
        }),
      ),
    ]);
    await toReview(user);
    const button = await screen.findByRole('button', { name: 'Launch 3 servers' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const alert = await screen.findByText(/The launch was refused/);
    expect(alert.closest('[role="alert"]')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/launch');
  });
});
