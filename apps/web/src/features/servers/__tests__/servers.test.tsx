import {
  acceptedSchema,
  apiPaths,
  availabilityZoneListSchema,
  projectListSchema,
  type Server,
  serverPageSchema,
  serverSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AttachmentSlots } from '../../../lib/attachment-slots';
import { bff, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeServer, makeSession } from '../../../testing/data';
import { server as network } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { ServerDetailPage } from '../components/server-detail-page';
import { ServersPage } from '../components/servers-page';

// Stand-ins for the attach-volume feature: these tests are about the server pages.
const slots: AttachmentSlots = {
  AttachDialog: ({ open, subject }) =>
    open ? <div role="dialog" aria-label={`attach ${subject.kind} ${subject.id}`} /> : null,
  DetachButton: ({ attachment }) => <button type="button">Detach {attachment.volumeName}</button>,
};

const web1 = makeServer({
  host: 'cmp-1',
  attachments: [
    makeAttachment({ volumeId: 'v1', volumeName: 'dataset', mode: 'ro' }),
    makeAttachment({
      volumeId: 'v2',
      volumeName: 'logs',
      mode: 'rw',
      attachmentId: 'a2',
      device: '/dev/vdc',
    }),
  ],
});
const building = makeServer({ id: 'srv-2', name: 'web-2', status: 'BUILD', task: 'spawning' });

/** The BFF's paged list answering every query with `servers` (a function: per call), and the zones and projects. */
function serversPage(servers: Server[] | (() => Server[])) {
  return [
    bff.get(
      apiPaths.serverPage,
      serverPageSchema,
      () => {
        const list = typeof servers === 'function' ? servers() : servers;
        return {
          servers: list,
          page: { number: 1, size: 20, nextMarker: null, total: list.length, atLeast: list.length },
        };
      },
      { anyQuery: true },
    ),
    bff.get(apiPaths.availabilityZones, availabilityZoneListSchema, {
      zones: [{ name: 'nova', available: true }],
    }),
    bff.get(apiPaths.projects, projectListSchema, { projects: [{ id: 'p-demo', name: 'demo' }] }),
  ];
}

describe('ServersPage', () => {
  it('lists servers with flavor, zone and attachment count; host only for admins', async () => {
    network.use(...serversPage([web1, building]));
    renderWithProviders(<ServersPage session={makeSession()} />);
    const row = (await screen.findByRole('link', { name: 'web-1' })).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('m1.small');
    expect(row).toHaveTextContent('nova');
    expect(row).toHaveTextContent('2 volumes · 1 RW, 1 RO');
    expect(screen.queryByRole('columnheader', { name: 'Host' })).toBeNull();
  });

  it('polls while a server is building and stops when it is active', async () => {
    let n = 0;
    network.use(
      ...serversPage(() => {
        n += 1;
        return [n < 2 ? building : { ...building, status: 'ACTIVE', task: null }];
      }),
    );
    const calls = recordRequests();
    renderWithProviders(<ServersPage session={makeSession()} />);
    const row = () => (screen.getByRole('link', { name: 'web-2' }).closest('tr') as HTMLElement).textContent;
    await screen.findByRole('link', { name: 'web-2' });
    expect(row()).toContain('BUILD');
    await waitFor(() => expect(row()).toContain('ACTIVE'), { timeout: 4_000 });
    const after = calls.length;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(calls.length).toBe(after);
  });

  it('shows hosts and the All projects switch to admins', async () => {
    network.use(...serversPage([web1]));
    renderWithProviders(<ServersPage session={makeSession({ isAdmin: true })} />);
    await screen.findByRole('link', { name: 'web-1' });
    expect(screen.getByRole('columnheader', { name: 'Host' })).toBeInTheDocument();
    expect(screen.getByText('cmp-1')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'All projects' })).toBeInTheDocument();
  });
});

describe('ServerDetailPage', () => {
  function show(server = web1) {
    network.use(
      bff.get(apiPaths.server(server.id), serverSchema, server),
      bff.delete(apiPaths.server(server.id), acceptedSchema, { accepted: true }, { status: 202 }),
    );
    const calls = recordRequests();
    renderWithProviders(<ServerDetailPage session={makeSession()} slots={slots} />, {
      url: `/servers/${server.id}`,
      path: '/servers/:id',
    });
    return { calls, user: userEvent.setup() };
  }

  it('shows where the server is reachable: its addresses, key pair and security groups', async () => {
    show(
      makeServer({
        addresses: [
          { network: 'private', address: '10.0.0.12', version: 4, type: 'fixed' },
          { network: 'private', address: 'fd00:10::c', version: 6, type: 'fixed' },
          { network: 'private', address: '172.24.4.50', version: 4, type: 'floating' },
        ],
        keyName: 'lab',
        // Nova lists a group once per port: shown once.
        securityGroups: ['default', 'web', 'default'],
      }),
    );
    const table = await screen.findByRole('table', { name: 'Addresses of server web-1' });
    const fixed = within(table).getByText('10.0.0.12').closest('tr') as HTMLElement;
    expect(fixed).toHaveTextContent('private');
    expect(fixed).toHaveTextContent('Fixed · IPv4');
    expect(within(table).getByText('172.24.4.50').closest('tr')).toHaveTextContent('Floating · IPv4');
    expect(within(table).getByText('fd00:10::c').closest('tr')).toHaveTextContent('Fixed · IPv6');
    expect(screen.getByText('Key pair').nextSibling).toHaveTextContent('lab');
    expect(screen.getByText('Security groups').nextSibling).toHaveTextContent(/^default, web$/);
  });

  it('says when a server has no address, key pair or group', async () => {
    show(makeServer({ addresses: [], keyName: null, securityGroups: [] }));
    expect(
      await screen.findByText('This server has no network address: nothing can reach it over the network.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Key pair').nextSibling).toHaveTextContent('None');
  });

  it('lists its attachments with mode, device and state, each detachable', async () => {
    show();
    const table = await screen.findByRole('table', { name: 'Volumes attached to server web-1' });
    const row = within(table).getByRole('link', { name: 'logs' }).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('/dev/vdc');
    expect(row).toHaveTextContent('read-write');
    expect(within(row).getByRole('button', { name: 'Detach logs' })).toBeInTheDocument();
  });

  it('opens the Attach dialog from the server side', async () => {
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Attach volume' }));
    expect(screen.getByRole('dialog', { name: 'attach server srv-1' })).toBeInTheDocument();
  });

  it('disables Attach volume with the reason while the server is busy', async () => {
    show(building);
    const attach = await screen.findByRole('button', { name: 'Attach volume' });
    expect(attach).toBeDisabled();
    expect(attach).toHaveAccessibleDescription(/busy \(spawning\)/);
  });

  it('deletes the server after confirmation', async () => {
    const { user, calls } = show();
    await user.click(await screen.findByRole('button', { name: 'Delete server' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete server?' });
    expect(dialog).toHaveTextContent('Its 2 attached volumes are detached');
    await user.click(within(dialog).getByRole('button', { name: 'Delete server' }));
    await waitFor(() => expect(screen.getByText('Elsewhere')).toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });
});
