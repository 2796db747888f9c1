import { apiPaths, bulkDetachResultSchema, snapshotListSchema, type Volume, volumeSchema } from '@sv/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { AttachVolumeDialog } from '../../attach-volume/components/attach-volume-dialog';
import { BulkDetachDialog, detachBlock } from '../../attach-volume/components/bulk-detach-dialog';
import { DetachAttachmentButton } from '../../attach-volume/components/detach-attachment-button';
import { bff, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeSession, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { VolumeDetailPage } from '../components/volume-detail-page';

const slots = {
  AttachDialog: AttachVolumeDialog,
  DetachButton: DetachAttachmentButton,
  BulkDetachDialog,
  detachBlock,
};

const shared = makeVolume({
  status: 'in-use',
  attachments: [
    makeAttachment({ serverId: 's1', serverName: 'web-1', device: '/dev/vdb' }),
    makeAttachment({ serverId: 's2', serverName: 'web-2', device: '/dev/vdc', attachmentId: 'a2' }),
    makeAttachment({ serverId: 's3', serverName: 'boot-1', device: '/dev/vda', attachmentId: 'a3' }),
  ],
});

function show(volume: Volume, extra: RequestHandler[] = []) {
  server.use(
    ...extra,
    bff.get(apiPaths.volume(volume.id), volumeSchema, volume),
    bff.get(apiPaths.volumeSnapshots(volume.id), snapshotListSchema, { snapshots: [] }),
  );
  const calls = recordRequests();
  renderWithProviders(<VolumeDetailPage session={makeSession()} slots={slots} />, {
    url: `/volumes/${volume.id}`,
    path: '/volumes/:id',
  });
  return { calls, user: userEvent.setup() };
}

describe('bulk detach on the volume page', () => {
  it('detaches the picked servers after one confirmation naming them, and shows each outcome', async () => {
    const { user, calls } = show(shared, [
      bff.post(apiPaths.bulkDetach, bulkDetachResultSchema, {
        outcomes: [
          { serverId: 's1', volumeId: 'vol-1', outcome: 'detached', code: null, message: null },
          {
            serverId: 's2',
            volumeId: 'vol-1',
            outcome: 'refused',
            code: 'conflict',
            message: "Cannot 'detach_volume' instance s2 while it is in task_state rebuilding",
          },
        ],
      }),
    ]);
    const detachN = await screen.findByRole('button', { name: 'Detach selected' });
    expect(detachN).toBeDisabled();
    // A root disk cannot be picked.
    expect(screen.getByRole('checkbox', { name: 'Select boot-1' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select web-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select web-2' }));
    await user.click(screen.getByRole('button', { name: 'Detach 2' }));

    const dialog = screen.getByRole('dialog', { name: 'Detach 2 attachments?' });
    const list = within(dialog).getByRole('list', { name: 'Attachments to detach' });
    expect(list).toHaveTextContent('data from web-1 (/dev/vdb)');
    expect(list).toHaveTextContent('data from web-2 (/dev/vdc)');
    expect(list).not.toHaveTextContent('boot-1');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Detach 2' }));

    expect(await within(dialog).findByText('1 of 2 detached; the cloud refused 1.')).toBeInTheDocument();
    expect(within(list).getByText('Detached')).toBeInTheDocument();
    expect(within(list).getByText(/Refused: Cannot 'detach_volume' instance s2/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      items: [
        { serverId: 's1', volumeId: 'vol-1' },
        { serverId: 's2', volumeId: 'vol-1' },
      ],
    });
  });

  it('selects every pickable server at once (the root disk stays out)', async () => {
    const { user } = show(shared);
    await user.click(
      await screen.findByRole('checkbox', { name: 'Select every server that can be detached' }),
    );
    expect(screen.getByRole('button', { name: 'Detach 2' })).toBeEnabled();
  });
});
