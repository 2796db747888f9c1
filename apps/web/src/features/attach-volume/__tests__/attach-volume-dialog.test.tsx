import {
  type Attachment,
  apiPaths,
  attachmentSchema,
  type Capabilities,
  preflightSchema,
  volumeSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type BffRefusal, bff, bffError, recordRequests } from '../../../testing/bff';
import { makeAttachment, makeCandidate, makePreflight, makeVolume } from '../../../testing/data';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { AttachVolumeDialog } from '../components/attach-volume-dialog';

const RO_OK: Capabilities['readOnlyAttach'] = { available: true, reason: null };
const subject = { kind: 'server' as const, id: 'srv-1', name: 'web-1' };

const candidates = [
  makeCandidate({
    id: 'vol-free',
    name: 'scratch',
    status: 'available',
    shared: false,
    attachments: { rw: 0, ro: 0 },
  }),
  makeCandidate({
    id: 'vol-shared',
    name: 'dataset',
    status: 'in-use',
    shared: true,
    attachments: { rw: 1, ro: 2 },
  }),
  makeCandidate({
    id: 'vol-taken',
    name: 'logs',
    status: 'in-use',
    shared: false,
    canAttach: false,
    canAttachReadOnly: false,
    reasons: [
      {
        code: 'volume_not_shared',
        message: "Volume 'logs' is attached to another server and is not a shared (multiattach) volume.",
      },
    ],
    attachments: { rw: 1, ro: 0 },
  }),
  makeCandidate({
    id: 'vol-oldhost',
    name: 'reference',
    shared: true,
    canAttachReadOnly: false,
    readOnlyReasons: [
      {
        code: 'host_too_old_for_modes',
        message:
          "Server 'web-1' runs on host cmp-3, whose compute service is too old for read-only attachments.",
      },
    ],
    attachments: { rw: 0, ro: 0 },
  }),
];

function setup(opts: { attach?: Attachment | BffRefusal; readOnly?: typeof RO_OK } = {}) {
  server.use(
    bff.get(apiPaths.preflightForServer('srv-1'), preflightSchema, makePreflight({ subject, candidates })),
    bff.post(
      apiPaths.serverAttachments('srv-1'),
      attachmentSchema,
      opts.attach ??
        makeAttachment({ volumeId: 'vol-free', state: 'reserved', serverName: null, volumeName: null }),
      { status: 201 },
    ),
  );
  const calls = recordRequests();
  const onClose = vi.fn();
  const onAttached = vi.fn();
  renderWithProviders(
    <AttachVolumeDialog
      open
      onClose={onClose}
      subject={subject}
      readOnlyAttach={opts.readOnly ?? RO_OK}
      onAttached={onAttached}
    />,
  );
  return { calls, onClose, onAttached, user: userEvent.setup() };
}

const submit = () => screen.getByRole('button', { name: /^attach read-(write|only)$/i });

describe('AttachVolumeDialog from a server', () => {
  it('is a labelled modal that lists shared volumes with their holds', async () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Attach a volume' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const shared = await screen.findByRole('radio', { name: /dataset/ });
    expect(shared).toBeEnabled();
    expect(shared).toHaveAccessibleDescription(/3 attachments · 1 RW, 2 RO/);
  });

  it('shows candidates that cannot attach disabled, with the pre-flight reason', async () => {
    setup();
    const taken = await screen.findByRole('radio', { name: /logs/ });
    expect(taken).toBeDisabled();
    expect(taken).toHaveAccessibleDescription(/not a shared \(multiattach\) volume/);
    expect(screen.getByText(/Cannot attach \(1\)/)).toBeInTheDocument();
  });

  it('asks for a volume before submitting', async () => {
    const { user, calls } = setup();
    await screen.findByRole('radio', { name: /scratch/ });
    await user.click(submit());
    expect(await screen.findByText('Choose a volume')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Volume to attach' })).toHaveAccessibleDescription(
      'Choose a volume',
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('disables read-only with the cloud’s reason when the cloud cannot do it', async () => {
    setup({
      readOnly: {
        available: false,
        reason: 'Read-only attachments need compute API 2.105; this cloud stops at 2.96.',
      },
    });
    await screen.findByRole('radio', { name: /scratch/ });
    const ro = screen.getByRole('checkbox', { name: 'Attach read-only' });
    expect(ro).toBeDisabled();
    expect(ro).toHaveAccessibleDescription(/need compute API 2\.105; this cloud stops at 2\.96/);
  });

  it('disables read-only with the candidate’s readOnlyReasons', async () => {
    const { user } = setup();
    const ro = () => screen.getByRole('checkbox', { name: 'Attach read-only' });
    await user.click(await screen.findByRole('radio', { name: /scratch/ }));
    expect(ro()).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Attach read-only' }));
    await user.click(screen.getByRole('radio', { name: /reference/ }));
    // Switching to a volume that cannot go read-only turns the toggle off and explains why.
    expect(ro()).toBeDisabled();
    expect(ro()).not.toBeChecked();
    expect(ro()).toHaveAccessibleDescription(/too old for read-only attachments/);
  });

  it('attaches read-only when asked', async () => {
    const { user, calls, onClose, onAttached } = setup();
    await user.click(await screen.findByRole('radio', { name: /scratch/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Attach read-only' }));
    await user.click(screen.getByRole('button', { name: 'Attach read-only' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      volumeId: 'vol-free',
      mode: 'ro',
      acknowledgeMultipleWriters: false,
    });
    expect(onAttached).toHaveBeenCalledWith(expect.objectContaining({ volumeId: 'vol-free' }));
    // The BFF's answer names nothing (it reads nothing back): the dialog adds the names it knows.
    expect(onAttached).toHaveBeenCalledWith(
      expect.objectContaining({ serverName: subject.name, volumeName: 'scratch' }),
    );
  });

  it('blocks a second writer until the risk is acknowledged, then sends the flag', async () => {
    const { user, calls, onClose } = setup({
      attach: makeAttachment({ volumeId: 'vol-shared' }),
    });
    await user.click(await screen.findByRole('radio', { name: /dataset/ }));
    const warning = screen.getByRole('region', { name: 'This would add another writer' });
    expect(
      within(warning).getByText(/GFS2 or OCFS2; without one, data will be corrupted/),
    ).toBeInTheDocument();
    expect(submit()).toBeDisabled();
    expect(submit()).toHaveAccessibleDescription(/Confirm the writer warning/);

    await user.click(within(warning).getByRole('checkbox', { name: /cluster file system/ }));
    expect(submit()).toBeEnabled();
    await user.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      volumeId: 'vol-shared',
      mode: 'rw',
      acknowledgeMultipleWriters: true,
    });
  });

  it('offers read-only instead of acknowledging', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('radio', { name: /dataset/ }));
    await user.click(screen.getByRole('button', { name: 'Attach read-only instead' }));
    expect(screen.queryByRole('region', { name: 'This would add another writer' })).not.toBeInTheDocument();
    expect(submit()).toBeEnabled();
    expect(submit()).toHaveTextContent('Attach read-only');
  });

  it('shows the BFF’s refusal inline and asks for the acknowledgement it wants', async () => {
    const { user, onClose } = setup({
      attach: bffError(
        409,
        'multiple_writers_unacknowledged',
        'Volume scratch is already attached read-write to db-2. Two servers writing to one volume corrupt its data.',
        { writers: [{ serverId: 'srv-2', serverName: 'db-2' }] },
      ),
    });
    await user.click(await screen.findByRole('radio', { name: /scratch/ }));
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(/already attached read-write to db-2/);
    const warning = screen.getByRole('region', { name: 'This would add another writer' });
    expect(warning).toHaveTextContent(/read-write to db-2/);
    expect(submit()).toBeDisabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a Cinder 400 inline and keeps the dialog open', async () => {
    const { user, onClose } = setup({
      attach: bffError(400, 'cloud_rejected', 'Invalid volume: Volume status must be available or in-use.'),
    });
    await user.click(await screen.findByRole('radio', { name: /scratch/ }));
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid volume: Volume status must be available',
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const { user, onClose } = setup();
    await screen.findByRole('radio', { name: /scratch/ });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('says which rules the cloud checks itself', async () => {
    server.use(
      bff.get(
        apiPaths.preflightForServer('srv-1'),
        preflightSchema,
        makePreflight({
          subject,
          candidates,
          unchecked: [
            { code: 'host_no_multiattach', message: 'Compute host names are shown to administrators only.' },
          ],
        }),
      ),
    );
    renderWithProviders(
      <AttachVolumeDialog open onClose={() => {}} subject={subject} readOnlyAttach={RO_OK} />,
    );
    expect(
      await screen.findByText('Compute host names are shown to administrators only.'),
    ).toBeInTheDocument();
  });
});

describe('AttachVolumeDialog from a volume', () => {
  const volume = { kind: 'volume' as const, id: 'vol-1', name: 'data' };

  it('lists candidate servers and names the existing writers', async () => {
    server.use(
      bff.get(
        apiPaths.preflightForVolume('vol-1'),
        preflightSchema,
        makePreflight({
          subject: volume,
          candidates: [
            makeCandidate({ id: 'srv-2', name: 'web-2', status: 'ACTIVE' }),
            makeCandidate({
              id: 'srv-3',
              name: 'web-3',
              status: 'BUILD',
              canAttach: false,
              reasons: [
                {
                  code: 'server_state',
                  message: "Server 'web-3' is BUILD; volumes can be attached only while it is active.",
                },
              ],
            }),
          ],
        }),
      ),
      bff.get(
        apiPaths.volume('vol-1'),
        volumeSchema,
        makeVolume({
          status: 'in-use',
          attachments: [makeAttachment({ serverId: 'srv-1', serverName: 'web-1' })],
        }),
      ),
      bff.post(
        apiPaths.serverAttachments('srv-2'),
        attachmentSchema,
        makeAttachment({ serverId: 'srv-2', serverName: 'web-2' }),
        { status: 201 },
      ),
    );
    const calls = recordRequests();
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <AttachVolumeDialog open onClose={onClose} subject={volume} readOnlyAttach={RO_OK} />,
    );

    expect(screen.getByRole('dialog', { name: 'Attach to a server' })).toBeInTheDocument();
    const building = await screen.findByRole('radio', { name: /web-3/ });
    expect(building).toBeDisabled();
    expect(building).toHaveAccessibleDescription(/is BUILD/);

    await user.click(screen.getByRole('radio', { name: /web-2/ }));
    expect(await screen.findByRole('region', { name: 'This would add another writer' })).toHaveTextContent(
      /read-write to web-1/,
    );
    await user.click(screen.getByRole('checkbox', { name: /cluster file system/ }));
    await user.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe(apiPaths.serverAttachments('srv-2'));
    expect(post?.body).toEqual({ volumeId: 'vol-1', mode: 'rw', acknowledgeMultipleWriters: true });
  });

  it('does not count an attachment record the compute service does not know as a writer', async () => {
    // Issue 11, finding 7: such a record names a server that does not hold the volume.
    server.use(
      bff.get(
        apiPaths.preflightForVolume('vol-1'),
        preflightSchema,
        makePreflight({ subject: volume, candidates: [makeCandidate({ id: 'srv-2', name: 'web-2' })] }),
      ),
      bff.get(
        apiPaths.volume('vol-1'),
        volumeSchema,
        makeVolume({
          status: 'in-use',
          attachments: [makeAttachment({ serverId: 'x', serverName: 'payroll', knownToCompute: false })],
        }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <AttachVolumeDialog open onClose={() => {}} subject={volume} readOnlyAttach={RO_OK} />,
    );
    await user.click(await screen.findByRole('radio', { name: /web-2/ }));
    expect(screen.queryByRole('region', { name: 'This would add another writer' })).not.toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });
});
