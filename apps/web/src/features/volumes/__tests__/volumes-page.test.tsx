import {
  apiPaths,
  availabilityZoneListSchema,
  imageListSchema,
  projectListSchema,
  type Volume,
  volumePageSchema,
  volumeSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeSession, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { VolumesPage } from '../components/volumes-page';

const shared = makeVolume({
  id: 'vol-1',
  name: 'dataset',
  status: 'in-use',
  attachments: [
    makeAttachment({ serverId: 's1', serverName: 'web-1', mode: 'rw' }),
    makeAttachment({ serverId: 's2', serverName: 'web-2', mode: 'rw', attachmentId: 'a2' }),
    makeAttachment({ serverId: 's3', serverName: 'web-3', mode: 'ro', attachmentId: 'a3' }),
  ],
});
const plain = makeVolume({
  id: 'vol-2',
  name: 'scratch',
  shared: false,
  type: '__DEFAULT__',
  bootable: true,
});

const types = {
  types: [
    { id: 't1', name: '__DEFAULT__', description: null, shared: false },
    { id: 't2', name: 'multiattach', description: null, shared: true },
  ],
};
const images = { images: [{ id: 'img-1', name: 'cirros', status: 'active', sizeBytes: 3 * 1024 ** 3 }] };

/** One page holding every volume given. */
const onePage = (volumes: Volume[]) => ({
  volumes,
  page: { number: 1, size: 20, nextMarker: null, total: volumes.length, atLeast: volumes.length },
});

/** The BFF of these tests: the project's volumes, every project's (all=1), zones, types and images. */
function answerAsTheBff(projectVolumes: Volume[] = [shared, plain]) {
  server.use(
    bff.get(
      apiPaths.volumePage,
      volumePageSchema,
      ({ url }) => onePage(url.searchParams.get('all') === '1' ? [shared] : projectVolumes),
      { anyQuery: true },
    ),
    bff.get(apiPaths.availabilityZones, availabilityZoneListSchema, {
      zones: [{ name: 'nova', available: true }],
    }),
    bff.get(apiPaths.projects, projectListSchema, { projects: [{ id: 'p-demo', name: 'demo' }] }),
    bff.get(apiPaths.volumeTypes, volumeTypeListSchema, types),
    bff.get(apiPaths.images, imageListSchema, images),
  );
}

describe('VolumesPage', () => {
  it('lists volumes with the shared badge and who holds them in which mode', async () => {
    answerAsTheBff();
    renderWithProviders(<VolumesPage session={makeSession()} />);
    expect(screen.getByText('Loading volumes…')).toBeInTheDocument();
    const row = (await screen.findByRole('link', { name: 'dataset' })).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('3 servers · 2 RW, 1 RO');
    expect(row).toHaveTextContent('2 writers');
    expect(within(row).getByText('Shared')).toBeInTheDocument();
    expect(within(row).getByText('web-3')).toBeInTheDocument();
    const other = screen.getByRole('link', { name: 'scratch' }).closest('tr') as HTMLElement;
    expect(other).toHaveTextContent('Not attached');
    expect(other).toHaveTextContent('Yes');
    expect(screen.queryByRole('switch', { name: 'All projects' })).toBeNull();
  });

  it('does not count an attachment record the compute service does not know as a holder', async () => {
    const planted = makeVolume({
      ...shared,
      attachments: [
        makeAttachment({ serverId: 's1', serverName: 'web-1', mode: 'rw' }),
        makeAttachment({
          serverId: 'x',
          serverName: 'payroll',
          mode: 'rw',
          attachmentId: 'p',
          knownToCompute: false,
        }),
      ],
    });
    answerAsTheBff([planted, plain]);
    renderWithProviders(<VolumesPage session={makeSession()} />);
    const row = (await screen.findByRole('link', { name: 'dataset' })).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('1 server · 1 RW');
    expect(row).not.toHaveTextContent('writers');
    expect(within(row).queryByText('payroll')).toBeNull();
    expect(row).toHaveTextContent('1 attachment record not known to the compute service');
  });

  it('gives admins an All projects switch that asks for all=1', async () => {
    answerAsTheBff();
    const calls = recordRequests();
    const user = userEvent.setup();
    renderWithProviders(<VolumesPage session={makeSession({ isAdmin: true, roles: ['admin'] })} />);
    await screen.findByRole('link', { name: 'scratch' });
    await user.click(screen.getByRole('switch', { name: 'All projects' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'scratch' })).toBeNull());
    expect(calls.some((c) => c.path.startsWith(`${apiPaths.volumePage}?all=1&`))).toBe(true);
    expect(screen.getByRole('columnheader', { name: 'Project' })).toBeInTheDocument();
  });

  it('shows an empty state and a load error where they happen', async () => {
    answerAsTheBff([]);
    const first = renderWithProviders(<VolumesPage session={makeSession()} />);
    expect(await screen.findByText('This project has no volumes yet')).toBeInTheDocument();
    first.unmount();
    server.use(
      bff.get(
        apiPaths.volumePage,
        volumePageSchema,
        bffError(503, 'cloud_unavailable', 'The volume service is down.'),
        { anyQuery: true },
      ),
    );
    renderWithProviders(<VolumesPage session={makeSession()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The volume service is down.');
  });
});

describe('Create volume dialog', () => {
  async function open() {
    answerAsTheBff();
    server.use(
      bff.post(
        apiPaths.volumes,
        volumeSchema,
        ({ body }) =>
          makeVolume({ id: 'vol-new', name: String((body as { name: string }).name), status: 'creating' }),
        { status: 201 },
      ),
    );
    const calls = recordRequests();
    const user = userEvent.setup();
    renderWithProviders(<VolumesPage session={makeSession()} />);
    await screen.findByRole('link', { name: 'scratch' });
    await user.click(screen.getAllByRole('button', { name: 'Create volume' })[0] as HTMLElement);
    const dialog = screen.getByRole('dialog', { name: 'Create volume' });
    return { calls, user, dialog };
  }

  it('labels the multiattach type as shared', async () => {
    const { dialog } = await open();
    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    await within(type).findByRole('option', { name: 'Shared (multiattach)' });
    expect(within(type).getByRole('option', { name: 'Standard (__DEFAULT__)' })).toBeInTheDocument();
  });

  it('validates as you type with the shared schema', async () => {
    const { user, dialog, calls } = await open();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();
    await user.type(name, 'x');
    await user.clear(name);
    expect(await within(dialog).findByText('Give the volume a name')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Give the volume a name');

    const size = within(dialog).getByRole('spinbutton', { name: 'Size (GB)' });
    await user.clear(size);
    await user.type(size, '0');
    expect(await within(dialog).findByText('Size must be between 1 and 16,384 GB')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create volume' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('checks the size against the boot image and creates the volume', async () => {
    const { user, dialog, calls } = await open();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'boot-disk');
    const size = within(dialog).getByRole('spinbutton', { name: 'Size (GB)' });
    await user.clear(size);
    await user.type(size, '2');
    await within(within(dialog).getByRole('combobox', { name: 'Type' })).findByRole('option', {
      name: 'Shared (multiattach)',
    });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'multiattach');
    expect(dialog).toHaveTextContent('Can be attached to several servers at once');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Bootable' }));
    const image = within(dialog).getByRole('combobox', { name: 'Image' });
    await within(image).findByRole('option', { name: /cirros/ });
    await user.selectOptions(image, 'img-1');
    expect(await within(dialog).findByText('Image cirros needs at least 3 GB')).toBeInTheDocument();
    await user.clear(size);
    await user.type(size, '3');
    await waitFor(() => expect(within(dialog).queryByText(/needs at least/)).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Create volume' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'boot-disk',
      sizeGb: 3,
      type: 'multiattach',
      bootable: true,
      imageId: 'img-1',
    });
    expect(screen.getByText(/Creating volume boot-disk/)).toHaveAttribute('role', 'status');
  });

  it('shows the BFF’s refusal inline', async () => {
    answerAsTheBff();
    server.use(
      bff.post(
        apiPaths.volumes,
        volumeSchema,
        bffError(
          413,
          'over_limit',
          'VolumeSizeExceedsAvailableQuota: Requested volume exceeds allowed gigabytes quota.',
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<VolumesPage session={makeSession()} />);
    await screen.findByRole('link', { name: 'scratch' });
    await user.click(screen.getAllByRole('button', { name: 'Create volume' })[0] as HTMLElement);
    const dialog = screen.getByRole('dialog', { name: 'Create volume' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'big');
    await user.click(within(dialog).getByRole('button', { name: 'Create volume' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/exceeds allowed gigabytes quota/);
  });
});
