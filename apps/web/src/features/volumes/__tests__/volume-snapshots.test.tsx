import {
  acceptedSchema,
  apiPaths,
  createdVolumeSchema,
  projectListSchema,
  type Snapshot,
  snapshotListSchema,
  snapshotSchema,
  type Volume,
  volumeSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttachVolumeDialog } from '../../attach-volume/components/attach-volume-dialog';
import { DetachAttachmentButton } from '../../attach-volume/components/detach-attachment-button';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeSession, makeSnapshot, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { NOTICE_MS } from '../../../lib/use-notice';
import { SnapshotsPage } from '../components/snapshots/snapshots-page';
import { VolumeDetailPage } from '../components/volume-detail-page';

const slots = { AttachDialog: AttachVolumeDialog, DetachButton: DetachAttachmentButton };
const types = { types: [{ id: 't1', name: '__DEFAULT__', description: null, shared: false }] };

function showVolume(volume: Volume, snapshots: Snapshot[] = [], extra: RequestHandler[] = []) {
  server.use(
    ...extra,
    bff.get(apiPaths.volume(volume.id), volumeSchema, volume),
    bff.get(apiPaths.volumeSnapshots(volume.id), snapshotListSchema, { snapshots }),
    bff.get(apiPaths.volumeTypes, volumeTypeListSchema, types),
  );
  const calls = recordRequests();
  renderWithProviders(
    <Routes>
      <Route path="/volumes/:id" element={<VolumeDetailPage session={makeSession()} slots={slots} />} />
    </Routes>,
    { url: `/volumes/${volume.id}`, path: '*' },
  );
  return { calls, user: userEvent.setup() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the volume page's Snapshots section", () => {
  it('lists the snapshots with status and size, and says when there are none', async () => {
    showVolume(makeVolume(), [makeSnapshot({ name: 'nightly', status: 'creating' })]);
    const table = await screen.findByRole('table', { name: 'Snapshots of volume data' });
    const row = within(table).getByText('nightly').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('10 GB');
    expect(row).toHaveTextContent('creating');
    // Not while it is on its way: each button says why.
    expect(within(row).getByRole('button', { name: 'Delete snapshot nightly' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Create volume from snapshot nightly' })).toHaveAttribute(
      'title',
      'A snapshot that is creating cannot be made into a volume.',
    );
  });

  it('snapshots an available volume and says so, then the notice goes away on its own', async () => {
    const { user, calls } = showVolume(
      makeVolume(),
      [],
      [
        bff.post(
          apiPaths.volumeSnapshots('vol-1'),
          snapshotSchema,
          ({ body }) => makeSnapshot({ name: (body as { name: string }).name, status: 'creating' }),
          { status: 202 },
        ),
      ],
    );
    expect(await screen.findByText('No snapshots of this volume')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create snapshot' }));
    const dialog = screen.getByRole('dialog', { name: 'Snapshot data' });
    // No in-use question for a volume nobody holds.
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'before-upgrade');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Create snapshot' }));
    expect(
      await screen.findByText('Creating snapshot before-upgrade. Its status updates here.'),
    ).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'POST');
    expect(sent?.body).toEqual({ name: 'before-upgrade', force: false });
    await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS + 100));
    expect(screen.queryByText(/Creating snapshot before-upgrade/)).toBeNull();
  });

  it('asks before snapshotting an in-use volume, explains why, and sends force', async () => {
    const held = makeVolume({ status: 'in-use', attachments: [makeAttachment({ serverName: 'web-1' })] });
    const { user, calls } = showVolume(
      held,
      [],
      [
        bff.post(apiPaths.volumeSnapshots('vol-1'), snapshotSchema, makeSnapshot({ status: 'creating' }), {
          status: 202,
        }),
      ],
    );
    await user.click(await screen.findByRole('button', { name: 'Create snapshot' }));
    const dialog = screen.getByRole('dialog', { name: 'Snapshot data' });
    const force = within(dialog).getByRole('checkbox', { name: 'Snapshot it while it is in use' });
    expect(force).toHaveAccessibleDescription(/as after a power cut/);
    await user.click(within(dialog).getByRole('button', { name: 'Create snapshot' }));
    expect(
      await within(dialog).findByText('Tick this to snapshot a volume that is in use.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(force);
    await user.click(within(dialog).getByRole('button', { name: 'Create snapshot' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ force: true });
  });

  it("shows the cloud's refusal inside the dialog", async () => {
    const { user } = showVolume(
      makeVolume(),
      [],
      [
        bff.post(
          apiPaths.volumeSnapshots('vol-1'),
          snapshotSchema,
          bffError(
            400,
            'snapshot_refused',
            'Invalid volume: Volume vol-1 status must be available, but current status is: maintenance.',
          ),
        ),
      ],
    );
    await user.click(await screen.findByRole('button', { name: 'Create snapshot' }));
    const dialog = screen.getByRole('dialog', { name: 'Snapshot data' });
    await user.click(within(dialog).getByRole('button', { name: 'Create snapshot' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/current status is: maintenance/);
  });

  it('deletes a snapshot after a confirmation that names it', async () => {
    const { user, calls } = showVolume(
      makeVolume(),
      [makeSnapshot({ id: 'snap-9', name: 'old' })],
      [bff.delete(apiPaths.snapshot('snap-9'), acceptedSchema, { accepted: true }, { status: 202 })],
    );
    await user.click(await screen.findByRole('button', { name: 'Delete snapshot old' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete snapshot?' });
    expect(dialog).toHaveTextContent('Delete snapshot old (10 GB)?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete snapshot' }));
    expect(await screen.findByText(/Deleting snapshot old/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === apiPaths.snapshot('snap-9'))).toBe(true);
  });

  it('makes a volume from a snapshot, refusing a size below the snapshot, then opens the new volume', async () => {
    const made = makeVolume({ id: 'vol-new', name: 'restored', status: 'creating' });
    const { user, calls } = showVolume(
      makeVolume(),
      [makeSnapshot({ sizeGb: 10 })],
      [
        bff.post(
          apiPaths.snapshotVolumes('snap-1'),
          createdVolumeSchema,
          { volumeId: 'vol-new' },
          { status: 202 },
        ),
        bff.get(apiPaths.volume('vol-new'), volumeSchema, made),
        bff.get(apiPaths.volumeSnapshots('vol-new'), snapshotListSchema, { snapshots: [] }),
      ],
    );
    await user.click(await screen.findByRole('button', { name: 'Create volume from snapshot nightly' }));
    const dialog = screen.getByRole('dialog', { name: 'Create volume from snapshot' });
    const size = within(dialog).getByRole('spinbutton', { name: 'Size (GB)' });
    await user.clear(size);
    await user.type(size, '5');
    expect(await within(dialog).findByText("Size must be at least the snapshot's 10 GB")).toBeInTheDocument();
    await user.clear(size);
    await user.type(size, '12');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'restored');
    await user.click(within(dialog).getByRole('button', { name: 'Create volume' }));
    expect(await screen.findByRole('heading', { level: 1, name: /restored/ })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'restored', sizeGb: 12 });
  });
});

describe('the Snapshots page', () => {
  it("lists the project's snapshots with a link to each one's volume", async () => {
    server.use(
      bff.get(apiPaths.snapshots, snapshotListSchema, {
        snapshots: [makeSnapshot({ volumeId: 'vol-7', volumeName: 'db' })],
      }),
    );
    renderWithProviders(<SnapshotsPage session={makeSession()} />, { url: '/snapshots', path: '/snapshots' });
    const table = await screen.findByRole('table', { name: 'Snapshots in project demo' });
    expect(within(table).getByRole('link', { name: 'db' })).toHaveAttribute('href', '/volumes/vol-7');
    expect(within(table).queryByRole('columnheader', { name: 'Project' })).toBeNull();
  });

  it("shows an admin every project's snapshots with the project's name when asked", async () => {
    const calls = recordRequests();
    server.use(
      bff.get(`${apiPaths.snapshots}?all=1`, snapshotListSchema, {
        snapshots: [makeSnapshot({ projectId: 'p-x' })],
      }),
      bff.get(apiPaths.projects, projectListSchema, { projects: [{ id: 'p-x', name: 'research' }] }),
    );
    renderWithProviders(<SnapshotsPage session={makeSession({ isAdmin: true })} />, {
      url: '/snapshots?all=1',
      path: '/snapshots',
    });
    expect(await screen.findByText('research')).toBeInTheDocument();
    expect(calls.some((c) => c.path === `${apiPaths.snapshots}?all=1`)).toBe(true);
  });
});
