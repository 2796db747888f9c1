import { apiPaths, bulkDetachResultSchema, serverSchema } from '@sv/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AttachVolumeDialog } from '../../attach-volume/components/attach-volume-dialog';
import { BulkDetachDialog, detachBlock } from '../../attach-volume/components/bulk-detach-dialog';
import { DetachAttachmentButton } from '../../attach-volume/components/detach-attachment-button';
import { bff, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeServer, makeSession } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { ServerDetailPage } from '../components/server-detail-page';

const slots = {
  AttachDialog: AttachVolumeDialog,
  DetachButton: DetachAttachmentButton,
  BulkDetachDialog,
  detachBlock,
};

// One server holding its root disk and two data volumes.
const web = makeServer({
  id: 's1',
  name: 'web-1',
  attachments: [
    makeAttachment({
      serverId: 's1',
      serverName: 'web-1',
      volumeId: 'root',
      volumeName: 'root',
      device: '/dev/vda',
    }),
    makeAttachment({
      serverId: 's1',
      serverName: 'web-1',
      volumeId: 'v1',
      volumeName: 'logs',
      device: '/dev/vdb',
    }),
    makeAttachment({
      serverId: 's1',
      serverName: 'web-1',
      volumeId: 'v2',
      volumeName: 'cache',
      device: '/dev/vdc',
      attachmentId: 'a2',
    }),
  ],
});

describe('bulk detach on the server page', () => {
  it('detaches the picked volumes after one confirmation naming them; the root disk cannot be picked', async () => {
    server.use(
      bff.get(apiPaths.server(web.id), serverSchema, web),
      bff.post(apiPaths.bulkDetach, bulkDetachResultSchema, {
        outcomes: [
          { serverId: 's1', volumeId: 'v1', outcome: 'detached', code: null, message: null },
          { serverId: 's1', volumeId: 'v2', outcome: 'detached', code: null, message: null },
        ],
      }),
    );
    const calls = recordRequests();
    renderWithProviders(<ServerDetailPage session={makeSession()} slots={slots} />, {
      url: `/servers/${web.id}`,
      path: '/servers/:id',
    });
    const user = userEvent.setup();

    expect(await screen.findByRole('button', { name: 'Detach selected' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select root' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select every volume that can be detached' }));
    await user.click(screen.getByRole('button', { name: 'Detach 2' }));

    const dialog = screen.getByRole('dialog', { name: 'Detach 2 attachments?' });
    const list = within(dialog).getByRole('list', { name: 'Attachments to detach' });
    expect(list).toHaveTextContent('logs from web-1 (/dev/vdb)');
    expect(list).toHaveTextContent('cache from web-1 (/dev/vdc)');
    expect(list).not.toHaveTextContent('root');
    await user.click(within(dialog).getByRole('button', { name: 'Detach 2' }));
    expect(await within(dialog).findByText('All 2 detached.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      items: [
        { serverId: 's1', volumeId: 'v1' },
        { serverId: 's1', volumeId: 'v2' },
      ],
    });
  }, 20_000);
});
