import {
  apiPaths,
  createdKeyPairSchema,
  imageListSchema,
  keyPairListSchema,
  type LaunchPlan,
  launchPlanSchema,
  networkChoicesSchema,
  quotaUsageListSchema,
  securityGroupChoicesSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { Route } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { bff, recordRequests } from '../../../testing/bff';
import { server } from '../../../testing/msw-server';
import { LaunchWizard } from '../components/launch-wizard';
import { UNREACHABLE_WARNING } from '../components/networks-step';
import { catalogHandlers, networkChoices, plan, quotaUsage, renderAt, session } from './helpers';

// A walk through the wizard's nine steps is many clicks: more than the default 5 s on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

function start(extra: RequestHandler[] = []) {
  // The first handler for a request answers it: the test's own go before the catalog's.
  server.use(...extra, ...catalogHandlers());
  const calls = recordRequests();
  const user = userEvent.setup();
  renderAt('/launch', [
    <Route key="w" path="/launch" element={<LaunchWizard session={session()} />} />,
    <Route key="p" path="/launches/:id" element={<p>progress page</p>} />,
  ]);
  return { user, calls };
}

const stepHeading = (n: number, title: string) =>
  screen.findByRole('heading', { level: 2, name: new RegExp(`Step ${n} of 9: ${title}`) });
const next = (user: UserEvent) => user.click(screen.getByRole('button', { name: /^Next:/ }));

/** Details → Zone with a valid launch of `count` m1.tiny servers from the only image. */
async function toNetworks(user: UserEvent, count = '2') {
  await stepHeading(1, 'Details');
  await user.type(screen.getByLabelText('Server name'), 'web');
  const countInput = screen.getByLabelText('Number of servers');
  await user.clear(countInput);
  await user.type(countInput, count);
  await next(user);
  await user.click(await screen.findByLabelText('m1.tiny'));
  await next(user);
  await stepHeading(3, 'Boot source');
  await next(user);
  await stepHeading(4, 'Data volumes');
  await next(user);
  await stepHeading(5, 'Availability zone');
  await next(user);
  await stepHeading(6, 'Networks');
}

async function toReview(user: UserEvent, count = '2') {
  await toNetworks(user, count);
  await next(user);
  await stepHeading(7, 'Security groups');
  await next(user);
  await stepHeading(8, 'Key pair');
  await next(user);
  await stepHeading(9, 'Review');
}

const planned = (over: Partial<LaunchPlan>) => bff.post(apiPaths.launchPlan, launchPlanSchema, plan(over));

describe('Boot source step', () => {
  it('chooses the only image there is', async () => {
    const { user } = start();
    await toNetworks(user, '1');
    await user.click(screen.getByRole('button', { name: /Step 3: Boot source/ }));
    expect(await screen.findByRole('radio', { name: 'cirros' })).toBeChecked();
  });

  it('leaves the choice to the user when there are several', async () => {
    const { user } = start([
      bff.get(apiPaths.images, imageListSchema, {
        images: [
          { id: 'img-1', name: 'cirros', status: 'active', sizeBytes: 1 },
          { id: 'img-2', name: 'ubuntu', status: 'active', sizeBytes: 1 },
        ],
      }),
    ]);
    await user.type(screen.getByLabelText('Server name'), 'web');
    await next(user);
    await user.click(await screen.findByLabelText('m1.tiny'));
    await next(user);
    await stepHeading(3, 'Boot source');
    expect(await screen.findByRole('radio', { name: 'cirros' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'ubuntu' })).not.toBeChecked();
  });
});

describe('Networks step', () => {
  it("preselects the project's only network, shows its subnets, and warns when none is chosen instead", async () => {
    const { user } = start();
    await toNetworks(user);
    const privateNet = screen.getByRole('checkbox', { name: /private/ });
    expect(privateNet).toBeChecked();
    expect(privateNet).toHaveAccessibleDescription('10.0.0.0/26, fd00:10::/64');
    // The external network is listed, not chosen.
    const publicNet = screen.getByRole('checkbox', { name: /public/ });
    expect(publicNet).not.toBeChecked();
    expect(within(publicNet.closest('li')!).getByText('External')).toBeInTheDocument();
    expect(screen.queryByText(UNREACHABLE_WARNING)).toBeNull();

    // Nothing chosen: asked to choose.
    await user.click(privateNet);
    await next(user);
    expect(
      await screen.findByText('Choose at least one network, or launch without a network'),
    ).toBeInTheDocument();
    await stepHeading(6, 'Networks');

    await user.click(screen.getByRole('checkbox', { name: 'No network' }));
    expect(screen.getByText(UNREACHABLE_WARNING)).toBeInTheDocument();
    // Choosing a network again takes "no network" back.
    await user.click(screen.getByRole('checkbox', { name: /private/ }));
    expect(screen.getByRole('checkbox', { name: 'No network' })).not.toBeChecked();
    expect(screen.queryByText(UNREACHABLE_WARNING)).toBeNull();
  });

  it('offers no network only where the cloud allows it', async () => {
    const { user } = start([
      bff.get(apiPaths.networks, networkChoicesSchema, networkChoices({ noneAllowed: false })),
    ]);
    await toNetworks(user);
    expect(screen.queryByRole('checkbox', { name: 'No network' })).toBeNull();
  });

  it('makes the user choose among several project networks', async () => {
    const two = networkChoices();
    two.networks.push({ ...two.networks[0]!, id: 'net-b', name: 'backend', subnets: [] });
    const { user } = start([bff.get(apiPaths.networks, networkChoicesSchema, two)]);
    await toNetworks(user);
    expect(screen.getByRole('checkbox', { name: /private/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /backend/ })).toHaveAccessibleDescription(
      /No subnets: servers get no address on it/,
    );
    await user.click(screen.getByRole('checkbox', { name: /backend/ }));
    await user.click(screen.getByRole('checkbox', { name: /private/ }));
    expect(screen.getByText(/Every server gets a port on each of the 2 networks/)).toBeInTheDocument();
  });

  it('says plainly when the cloud has no network service, and launches without one', async () => {
    const { user, calls } = start([
      bff.get(
        apiPaths.networks,
        networkChoicesSchema,
        networkChoices({ networkService: false, networks: [] }),
      ),
      bff.get(apiPaths.securityGroups, securityGroupChoicesSchema, {
        networkService: false,
        securityGroups: [],
      }),
      planned({}),
    ]);
    await toNetworks(user);
    expect(
      screen.getByText(/This cloud has no network service, so the servers launch without a network/),
    ).toBeInTheDocument();
    await next(user);
    await stepHeading(7, 'Security groups');
    expect(screen.getByText(/no network service, so there are no security groups/)).toBeInTheDocument();
    await next(user);
    await next(user);
    await stepHeading(9, 'Review');
    await screen.findByText('Ready to launch.');
    const body = calls.find((c) => c.path === '/api/launches/plan')?.body as Record<string, unknown>;
    expect(body.networks).toBe('none');
    expect(body.securityGroups).toBeUndefined();
  });
});

describe('Security groups step', () => {
  it('preselects default and takes several', async () => {
    const { user, calls } = start([planned({})]);
    await toNetworks(user);
    await next(user);
    await stepHeading(7, 'Security groups');
    const byDefault = screen.getByRole('checkbox', { name: /default/ });
    expect(byDefault).toBeChecked();
    expect(byDefault).toHaveAccessibleDescription('4 rules · Default security group');
    await user.click(screen.getByRole('checkbox', { name: /web/ }));
    await next(user);
    await next(user);
    await stepHeading(9, 'Review');
    await screen.findByText('Ready to launch.');
    expect(calls.find((c) => c.path === '/api/launches/plan')?.body).toMatchObject({
      securityGroups: ['sg-default', 'sg-web'],
    });
    expect(screen.getByText('default, web')).toBeInTheDocument();
  });
});

describe('Key pair step', () => {
  it('creates a new pair: shows the private key once with a download, and waits for the user to say it is saved', async () => {
    const { user, calls } = start([
      bff.post(
        apiPaths.keyPairs,
        createdKeyPairSchema,
        {
          keyPair: { name: 'lab', fingerprint: 'cc:dd', type: 'ssh' },
          privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n',
        },
        { status: 201 },
      ),
      planned({}),
    ]);
    await toNetworks(user);
    await next(user);
    await next(user);
    await stepHeading(8, 'Key pair');
    // The user's only pair is chosen to start with.
    expect(screen.getByRole('radio', { name: 'A key pair you have' })).toBeChecked();
    expect(screen.getByLabelText('Key pair', { selector: 'select' })).toHaveValue('demo-key');

    await user.click(screen.getByRole('radio', { name: 'Create a new key pair' }));
    await user.click(screen.getByRole('button', { name: 'Create key pair' }));
    expect(await screen.findByText('Give the key pair a name')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Key pair name'), 'demo-key');
    await user.click(screen.getByRole('button', { name: 'Create key pair' }));
    expect(await screen.findByText('You already have a key pair called demo-key')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Key pair name'));
    await user.type(screen.getByLabelText('Key pair name'), 'lab');
    await user.click(screen.getByRole('button', { name: 'Create key pair' }));

    expect(
      await screen.findByRole('heading', { name: 'Save the private key of lab now' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/It is shown only this once/)).toBeInTheDocument();
    expect(screen.getByLabelText('Private key of lab')).toHaveValue('-----BEGIN PRIVATE KEY-----\nabc\n');
    const download = screen.getByRole('link', { name: 'Download lab.pem' });
    expect(download).toHaveAttribute('download', 'lab.pem');
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toContain('-----BEGIN PRIVATE KEY-----');
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/key-pairs')?.body).toEqual({
      name: 'lab',
    });

    // Not on without the user's word.
    await next(user);
    expect(
      await screen.findByText('Confirm you saved the private key: it cannot be shown again.'),
    ).toBeInTheDocument();
    await stepHeading(8, 'Key pair');
    await user.click(screen.getByRole('checkbox', { name: 'I have saved the private key' }));
    expect(screen.queryByLabelText('Private key of lab')).toBeNull();
    expect(screen.getByText('Key pair lab created. Its private key is no longer shown.')).toBeInTheDocument();
    await next(user);
    await stepHeading(9, 'Review');
    await screen.findByText('Ready to launch.');
    expect(calls.find((c) => c.path === '/api/launches/plan')?.body).toMatchObject({ keyName: 'lab' });
  });

  it('imports a public key', async () => {
    const { user, calls } = start([
      bff.post(
        apiPaths.keyPairs,
        createdKeyPairSchema,
        { keyPair: { name: 'laptop', fingerprint: 'ee:ff', type: 'ssh' }, privateKey: null },
        { status: 201 },
      ),
      planned({}),
    ]);
    await toNetworks(user);
    await next(user);
    await next(user);
    await stepHeading(8, 'Key pair');
    await user.click(screen.getByRole('radio', { name: 'Import a public key' }));
    await next(user);
    expect(await screen.findByText('Import the public key first, or choose no key pair')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Key pair name'), 'laptop');
    await user.click(screen.getByRole('button', { name: 'Import key pair' }));
    expect(await screen.findByText(/Paste the public key/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Public key'), 'ssh-ed25519 AAAAC3Nz me@laptop');
    await user.click(screen.getByRole('button', { name: 'Import key pair' }));
    expect(await screen.findByText('Key pair laptop imported; the servers get it.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/key-pairs')?.body).toEqual({
      name: 'laptop',
      publicKey: 'ssh-ed25519 AAAAC3Nz me@laptop',
    });
    await next(user);
    await stepHeading(9, 'Review');
  });

  it('asks for a choice when the user has no pair, and allows none with a note', async () => {
    const { user, calls } = start([
      bff.get(apiPaths.keyPairs, keyPairListSchema, { keyPairs: [] }),
      planned({}),
    ]);
    await toNetworks(user);
    await next(user);
    await next(user);
    await stepHeading(8, 'Key pair');
    expect(screen.getByRole('radio', { name: /A key pair you have/ })).toBeDisabled();
    await next(user);
    expect(
      await screen.findByText('Choose a key pair to log in with, or choose no key pair'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'No key pair' }));
    expect(screen.getByText(/The servers get no key pair/)).toBeInTheDocument();
    await next(user);
    await stepHeading(9, 'Review');
    await screen.findByText('Ready to launch.');
    const body = calls.find((c) => c.path === '/api/launches/plan')?.body as Record<string, unknown>;
    expect(body.keyName).toBeUndefined();
  });
});

describe('Quotas on the first step', () => {
  it("shows the project's use and limits, what this launch uses, and refuses a count above the instances left", async () => {
    const { user } = start([
      bff.get(
        apiPaths.quotas,
        quotaUsageListSchema,
        quotaUsage({ unavailable: [{ service: 'volume', reason: 'The volume service did not answer.' }] }),
      ),
    ]);
    await stepHeading(1, 'Details');
    const panel = await screen.findByRole('region', { name: 'Project quota' });
    expect(within(panel).getByText('Instances')).toBeInTheDocument();
    expect(within(panel).getByText(/5 of 10 used/)).toBeInTheDocument();
    expect(within(panel).getByText(/40 of 1000 used/)).toBeInTheDocument();
    expect(within(panel).getByText(/4 used, no limit/)).toBeInTheDocument();
    expect(
      within(panel).getByText(/The volume quotas could not be read: The volume service did not answer./),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('Server name'), 'web');
    const count = screen.getByLabelText('Number of servers');
    await user.clear(count);
    await user.type(count, '6');
    const message = await screen.findByText(
      'This project has room for 5 more servers (5 of 10 instances used). Launch at most 5.',
    );
    expect(count).toHaveAttribute('aria-invalid', 'true');
    expect(count).toHaveAccessibleDescription(message.textContent ?? '');
    await next(user);
    await stepHeading(1, 'Details');

    await user.clear(count);
    await user.type(count, '4');
    await waitFor(() => expect(count).not.toHaveAttribute('aria-invalid'));
    await next(user);
    await stepHeading(2, 'Flavor');
    await user.click(await screen.findByLabelText('m1.small'));
    const flavorPanel = screen.getByRole('region', { name: 'Project quota' });
    // 4 instances and 4 vCPUs (m1.small has 1), 8 GB of RAM.
    expect(within(flavorPanel).getAllByText(/this launch uses 4$/)).toHaveLength(2);
    expect(within(flavorPanel).getByText(/this launch uses 8 GB/)).toBeInTheDocument();
  });

  it('says when the quota is used up', async () => {
    const { user } = start([
      bff.get(
        apiPaths.quotas,
        quotaUsageListSchema,
        quotaUsage({
          quotas: [{ resource: 'instances', label: 'Instances', service: 'compute', used: 10, limit: 10 }],
        }),
      ),
    ]);
    await screen.findByRole('region', { name: 'Project quota' });
    await user.type(screen.getByLabelText('Number of servers'), '{Backspace}1');
    expect(
      await screen.findByText(/This project's instance quota is used up \(10 of 10 instances used\)/),
    ).toBeInTheDocument();
  });
});

describe('Review: quotas, capacity and the count that fits', () => {
  it('names the quota that blocks, says how many fit, and "Launch N instead" re-plans with that count', async () => {
    const { user, calls } = start([
      bff.post(apiPaths.launchPlan, launchPlanSchema, ({ body }) => {
        const count = (body as { count: number }).count;
        return count > 3
          ? plan({
              ok: false,
              problems: [
                { field: 'count', message: 'This launch needs 8 vCPUs and the project has 6 left.' },
              ],
              warnings: [{ field: 'availabilityZone', message: 'Volume dataset is in zone nova.' }],
              quotas: [
                { resource: 'instances', label: 'Instances', need: count, left: 5 },
                { resource: 'cores', label: 'vCPUs', need: count * 2, left: 6 },
              ],
              capacity: {
                source: 'dry-run',
                requested: count,
                fits: 3,
                zones: [{ zone: 'nova', fits: 3 }],
                note: 'The scheduler placed 3 of 4 on the hosts of zone nova.',
              },
              maxCount: 3,
            })
          : plan({
              quotas: [{ resource: 'cores', label: 'vCPUs', need: count * 2, left: 6 }],
              capacity: { source: 'dry-run', requested: count, fits: count, zones: [], note: '' },
            });
      }),
    ]);
    await toReview(user, '4');
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('This launch needs 8 vCPUs and the project has 6 left.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Volume dataset is in zone nova.')).toBeInTheDocument();
    const quotas = screen.getByRole('region', { name: 'Quotas' });
    expect(within(quotas).getByText('over by 2')).toBeInTheDocument();
    const capacity = screen.getByRole('region', { name: /Capacity/ });
    expect(
      within(capacity).getByText(/Checked with the cloud's scheduler: only 3 servers of the 4 fit now/),
    ).toBeInTheDocument();
    expect(within(capacity).getByText('Zone nova: 3 servers fit')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Launch 4 servers' })).toBeDisabled();

    await user.click(within(alert).getByRole('button', { name: 'Launch 3 instead' }));
    expect(await screen.findByText('Ready to launch.')).toBeInTheDocument();
    expect(screen.getByText(/the cloud can place all 3 servers now/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Launch 3 servers' })).toBeEnabled());
    const plans = calls.filter((c) => c.path === '/api/launches/plan');
    expect(plans.at(-1)?.body).toMatchObject({ count: 3 });
  });

  it.each([
    ['placement', "From the hosts' figures (placement)"],
    ['hypervisors', "From the hosts' figures"],
    ['unchecked', 'Cannot be checked in advance for a member on this cloud.'],
  ] as const)('says where a %s capacity comes from', async (source, words) => {
    const { user } = start([
      planned({
        capacity: {
          source,
          requested: 2,
          fits: source === 'unchecked' ? null : 2,
          zones: [],
          note: source === 'unchecked' ? "Nova's scheduler decides when the servers are created." : '',
        },
      }),
    ]);
    await toReview(user);
    const capacity = await screen.findByRole('region', { name: /Capacity/ });
    expect(within(capacity).getByText(new RegExp(words.replace(/[().]/g, '\\$&')))).toBeInTheDocument();
    // "Ready" claims only what was checked: unchecked capacity is not "nothing in the way".
    const ready = screen.getByRole('status', { name: '' });
    if (source === 'unchecked') {
      expect(ready).toHaveTextContent(
        'whether every server finds a host is known only when the cloud creates them',
      );
      expect(ready).not.toHaveTextContent('The cloud found nothing in the way');
    } else {
      expect(ready).toHaveTextContent('Ready to launch. The cloud found nothing in the way.');
    }
  });
});
