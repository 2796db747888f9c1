import {
  snapshotListSchema,
  acceptedSchema,
  apiPaths,
  volumeSchema,
  volumeTypeListSchema,
  type Volume,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { AttachVolumeDialog } from '../../attach-volume/components/attach-volume-dialog';
import { DetachAttachmentButton } from '../../attach-volume/components/detach-attachment-button';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeSession, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { VolumeDetailPage } from '../components/volume-detail-page';

const slots = { AttachDialog: AttachVolumeDialog, DetachButton: DetachAttachmentButton };

const plain = makeVolume({ type: '__DEFAULT__', shared: false, sizeGb: 10 });
const types = {
  types: [
    { id: 't1', name: '__DEFAULT__', description: null, shared: false },
    { id: 't2', name: 'multiattach', description: null, shared: true },
  ],
};

function show(volume: Volume = plain, extra: RequestHandler[] = []) {
  server.use(
    bff.get(apiPaths.volume(volume.id), volumeSchema, volume),
    bff.get(apiPaths.volumeTypes, volumeTypeListSchema, types),
    ...extra,
    // The page's Snapshots section (web17).
    bff.get(apiPaths.volumeSnapshots(volume.id), snapshotListSchema, { snapshots: [] }),
  );
  const calls = recordRequests();
  renderWithProviders(<VolumeDetailPage session={makeSession()} slots={slots} />, {
    url: `/volumes/${volume.id}`,
    path: '/volumes/:id',
  });
  return { calls, user: userEvent.setup() };
}

describe('volume actions on the volume page', () => {
  it('extends to a larger size, saying the range in words when the size does not fit', async () => {
    const { user, calls } = show(plain, [
      bff.post(apiPaths.volumeExtend('vol-1'), acceptedSchema, { accepted: true }, { status: 202 }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Extend' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend volume' });
    const size = within(dialog).getByLabelText('New size (GB)');
    await user.clear(size);
    await user.type(size, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(size).toHaveAccessibleDescription('Size must be between 11 and 16,384 GB');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(size);
    await user.type(size, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('status')).toHaveTextContent('Extending data to 20 GB');
    const sent = calls.find((c) => c.method === 'POST' && c.path === apiPaths.volumeExtend('vol-1'));
    expect(sent?.body).toEqual({ sizeGb: 20 });
  });

  it("shows the cloud's refusal inside the extend dialog", async () => {
    const message =
      "Invalid volume: Volume vol-1 status must be '{'status': 'available'}' to extend, currently error.";
    const { user } = show(plain, [
      bff.post(apiPaths.volumeExtend('vol-1'), acceptedSchema, () =>
        bffError(400, 'volume_action_refused', message),
      ),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Extend' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend volume' });
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText(message, { exact: false })).toBeInTheDocument();
  });

  it('disables Extend and Change type with the reason while the volume is busy', async () => {
    show(makeVolume({ status: 'extending' }));
    const extend = await screen.findByRole('button', { name: 'Extend' });
    expect(extend).toBeDisabled();
    expect(extend).toHaveAccessibleDescription(
      'Extend: It is extending right now; wait until that finishes.',
    );
    expect(screen.getByRole('button', { name: 'Change type' })).toBeDisabled();
  });

  it('explains what becoming shared means, and sends the migration policy', async () => {
    const { user, calls } = show(plain, [
      bff.post(apiPaths.volumeRetype('vol-1'), acceptedSchema, { accepted: true }, { status: 202 }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Change type' }));
    const dialog = screen.getByRole('dialog', { name: 'Change volume type' });
    const select = within(dialog).getByLabelText('New type');
    // The volume's own type is not offered.
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, 'multiattach');
    expect(within(dialog).getByRole('note')).toHaveTextContent('several servers can then hold it at once');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Change type' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = calls.find((c) => c.method === 'POST' && c.path === apiPaths.volumeRetype('vol-1'));
    expect(sent?.body).toEqual({ type: 'multiattach', migrationPolicy: 'on-demand' });
  });

  it('says before trying that an attached shared volume cannot stop being shared', async () => {
    const held = makeVolume({
      status: 'in-use',
      attachments: [makeAttachment({ serverId: 's1', serverName: 'web-1' })],
    });
    const { user } = show(held);
    await user.click(await screen.findByRole('button', { name: 'Change type' }));
    const dialog = screen.getByRole('dialog', { name: 'Change volume type' });
    const select = within(dialog).getByLabelText('New type');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, '__DEFAULT__');
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      'the cloud refuses this change for a volume that is attached',
    );
    expect(within(dialog).getByRole('button', { name: 'Change type' })).toBeDisabled();
  });

  it('marks a volume bootable after confirmation', async () => {
    const { user, calls } = show(plain, [
      bff.put(apiPaths.volumeBootable('vol-1'), acceptedSchema, { accepted: true }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Mark bootable' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark volume bootable?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark bootable' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('status')).toHaveTextContent('data is now bootable');
    const sent = calls.find((c) => c.method === 'PUT');
    expect(sent?.body).toEqual({ bootable: true });
  });

  it('shows why a root disk has no Detach button', async () => {
    const boot = makeVolume({
      status: 'in-use',
      bootable: true,
      attachments: [
        makeAttachment({ serverId: 's1', serverName: 'web-1', device: '/dev/vda' }),
        makeAttachment({ serverId: 's2', serverName: 'web-2', device: '/dev/vdb', attachmentId: 'a2' }),
      ],
    });
    show(boot);
    const table = await screen.findByRole('table');
    const root = within(table).getByRole('link', { name: 'web-1' }).closest('tr') as HTMLElement;
    expect(within(root).queryByRole('button', { name: /Detach/ })).toBeNull();
    expect(root).toHaveTextContent('Root disk: the server boots from it, so it cannot be detached.');
    const data = within(table).getByRole('link', { name: 'web-2' }).closest('tr') as HTMLElement;
    expect(within(data).getByRole('button', { name: 'Detach data from web-2' })).toBeEnabled();
  });
});
