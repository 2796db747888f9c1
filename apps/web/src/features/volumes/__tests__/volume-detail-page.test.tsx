import {
  snapshotListSchema,
  acceptedSchema,
  apiPaths,
  preflightSchema,
  projectListSchema,
  volumeSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { AttachVolumeDialog } from '../../attach-volume/components/attach-volume-dialog';
import { DetachAttachmentButton } from '../../attach-volume/components/detach-attachment-button';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeCandidate, makePreflight, makeSession, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { VolumeDetailPage } from '../components/volume-detail-page';

// The real attach-volume components, as app/routes.tsx wires them.
const slots = { AttachDialog: AttachVolumeDialog, DetachButton: DetachAttachmentButton };

const attached = makeVolume({
  status: 'in-use',
  attachments: [
    makeAttachment({ serverId: 's1', serverName: 'web-1', mode: 'rw', host: 'cmp-1', device: '/dev/vdb' }),
    makeAttachment({ serverId: 's2', serverName: 'web-2', mode: 'ro', host: 'cmp-2', attachmentId: 'a2' }),
  ],
});

function show(volume = attached, session = makeSession(), extra: RequestHandler[] = []) {
  server.use(
    bff.get(apiPaths.volume(volume.id), volumeSchema, volume),
    // Admins see project names (GET /api/projects); members never ask.
    bff.get(apiPaths.projects, projectListSchema, {
      projects: [{ id: volume.projectId ?? 'p', name: 'research' }],
    }),
    ...extra,
    // The page's Snapshots section (web17).
    bff.get(apiPaths.volumeSnapshots(volume.id), snapshotListSchema, { snapshots: [] }),
  );
  const calls = recordRequests();
  renderWithProviders(<VolumeDetailPage session={session} slots={slots} />, {
    url: `/volumes/${volume.id}`,
    path: '/volumes/:id',
  });
  return { calls, user: userEvent.setup() };
}

describe('VolumeDetailPage', () => {
  it('lists every attachment with server link, device, mode and state; hosts for admins only', async () => {
    show();
    const table = await screen.findByRole('table', { name: 'Servers holding volume data' });
    const row = within(table).getByRole('link', { name: 'web-2' }).closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'web-2' })).toHaveAttribute('href', '/servers/s2');
    expect(row).toHaveTextContent('read-only');
    expect(row).toHaveTextContent('attached');
    expect(within(table).queryByRole('columnheader', { name: 'Host' })).toBeNull();
  });

  it('shows the compute host to admins', async () => {
    show(attached, makeSession({ isAdmin: true }));
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Host' })).toBeInTheDocument();
    expect(within(table).getByText('cmp-2')).toBeInTheDocument();
    // The project by its name, not its id.
    expect(await screen.findByText('research')).toBeInTheDocument();
  });

  it('disables delete with the reason while the volume is attached', async () => {
    show();
    const del = await screen.findByRole('button', { name: 'Delete volume' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(/Attached to 2 servers\. Detach it from every server first\./);
  });

  it('deletes an unattached volume after confirmation', async () => {
    const { user, calls } = show(makeVolume(), makeSession(), [
      bff.delete(apiPaths.volume('vol-1'), acceptedSchema, { accepted: true }, { status: 202 }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Delete volume' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete volume?' });
    // Cancel has focus first, so a stray Enter destroys nothing.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete volume' }));
    await waitFor(() => expect(screen.getByText('Elsewhere')).toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === apiPaths.volume('vol-1'))).toBe(true);
  });

  it('detaches one attachment after confirmation and shows refusals in the dialog', async () => {
    let refuse = true;
    const { user, calls } = show(attached, makeSession(), [
      bff.delete(
        apiPaths.serverAttachment('s1', 'vol-1'),
        acceptedSchema,
        () =>
          refuse
            ? bffError(
                409,
                'conflict',
                "Cannot 'detach_volume' instance s1 while it is in task_state reboot_started",
              )
            : { accepted: true as const },
        { status: 202 },
      ),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Detach data from web-1' }));
    const dialog = screen.getByRole('dialog', { name: 'Detach volume?' });
    expect(dialog).toHaveTextContent('last read-write attachment');
    await user.click(within(dialog).getByRole('button', { name: 'Detach' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/task_state reboot_started/);
    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Detach' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(2);
  });

  it('opens the Attach dialog from the volume side', async () => {
    const { user } = show(attached, makeSession(), [
      bff.get(
        apiPaths.preflightForVolume('vol-1'),
        preflightSchema,
        makePreflight({
          subject: { kind: 'volume', id: 'vol-1', name: 'data' },
          candidates: [makeCandidate({ id: 's9', name: 'db-9', status: 'ACTIVE' })],
        }),
      ),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Attach to a server' }));
    const dialog = screen.getByRole('dialog', { name: 'Attach to a server' });
    expect(await within(dialog).findByRole('radio', { name: /db-9/ })).toBeEnabled();
  });

  it('explains why a plain volume that is attached cannot take another server', async () => {
    show(makeVolume({ shared: false, status: 'in-use', attachments: [makeAttachment()] }));
    const attach = await screen.findByRole('button', { name: 'Attach to a server' });
    expect(attach).toBeDisabled();
    expect(attach).toHaveAccessibleDescription(/not shared \(multiattach\) and is already attached/);
  });

  it('says when the volume does not exist', async () => {
    server.use(
      bff.get(
        apiPaths.volume('gone'),
        volumeSchema,
        bffError(404, 'not_found', 'Volume gone could not be found.'),
      ),
    );
    renderWithProviders(<VolumeDetailPage session={makeSession()} slots={slots} />, {
      url: '/volumes/gone',
      path: '/volumes/:id',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This volume does not exist' }),
    ).toBeInTheDocument();
  });
});

describe('VolumeDetailPage: an attachment record the compute service does not know', () => {
  // Issue 11, finding 7: Cinder takes any server id on POST /attachments, so a member can make a
  // record naming another project's server. The BFF marks it; the page shows it as exactly that.
  const planted = makeVolume({
    status: 'in-use',
    attachments: [
      makeAttachment({ serverId: 's1', serverName: 'web-1', mode: 'rw' }),
      makeAttachment({
        serverId: 'admin-srv',
        serverName: 'payroll',
        mode: 'rw',
        attachmentId: 'planted',
        device: null,
        knownToCompute: false,
      }),
    ],
  });

  it('shows it unlinked and marked, offers no detach, and counts it as no server or writer', async () => {
    show(planted, makeSession({ isAdmin: true }));
    const table = await screen.findByRole('table', { name: 'Servers holding volume data' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const stray = rows.find((r) => within(r).queryByText('payroll')) as HTMLElement;
    expect(within(stray).queryByRole('link')).toBeNull();
    expect(within(stray).getByText('not known to the compute service')).toBeInTheDocument();
    expect(within(stray).queryByRole('button', { name: /Detach/ })).toBeNull();
    const real = rows.find((r) => within(r).queryByRole('link', { name: 'web-1' })) as HTMLElement;
    expect(within(real).queryByText('not known to the compute service')).toBeNull();
    expect(within(real).getByRole('button', { name: /Detach/ })).toBeInTheDocument();

    expect(screen.getByRole('heading', { name: 'Attachments (1)' })).toBeInTheDocument();
    expect(
      screen.getByText(/does not list the volume on it, so the server does not hold it/),
    ).toBeInTheDocument();
    // One real writer: no several-writers warning.
    expect(screen.queryByText(/servers write to this volume/)).toBeNull();
  });
});
