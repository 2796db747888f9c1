import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

let tc: TestCloud;
let demo: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, adminSession);
});

const expectEmpty = (res: { status: number; text: string; headers: Headers }, status: number) => {
  expect(res.status, res.text).toBe(status);
  expect(res.text).toBe('');
  expect(res.headers.get('content-type')).toBe('application/json');
};

describe('POST /volumes/{id}/action dispatch', () => {
  it('answers an unknown action with 400', async () => {
    const id = await d.createVolume();
    const res = await d.action(id, { 'os-bogus': {} });
    expect(res.body).toEqual(fault(400, 'There is no such action: os-bogus'));
  });

  it.each([
    [{ 'os-extend': { new_size: 2 }, 'os-set_bootable': { bootable: true } }],
    [{}],
    [[{ 'os-extend': { new_size: 2 } }]],
    ['os-extend'],
  ])('answers a body without exactly one key (%j) as malformed', async (body) => {
    const id = await d.createVolume();
    expect((await d.action(id, body)).body).toEqual(fault(400, 'Malformed request body'));
    expect((await d.call('POST', `/volumes/${id}/action`)).body).toEqual(
      fault(400, 'Malformed request body'),
    );
  });

  it("answers another project's or an unknown volume with 404", async () => {
    const other = await a.createVolume();
    const missing = randomUUID();
    for (const id of [other, missing]) {
      for (const body of [
        { 'os-set_bootable': { bootable: true } },
        { 'os-update_readonly_flag': { readonly: true } },
        { 'os-retype': { new_type: 'multiattach' } },
        { 'os-extend': { new_size: 5 } },
      ]) {
        expect((await d.action(id, body)).body).toEqual(fault(404, `Volume ${id} could not be found.`));
      }
    }
  });

  it('routes the legacy attach actions to the attach engineer’s handlers', async () => {
    const id = await d.createVolume();
    const res = await d.action(id, { 'os-reserve': null });
    expect(res.status, res.text).toBe(202);
    expect((await d.show(id)).status).toBe('attaching');
  });
});

describe('os-set_bootable', () => {
  it('answers 200 with an empty body and sets bootable (capture 07)', async () => {
    const id = await d.createVolume();
    const res = await d.action(id, { 'os-set_bootable': { bootable: true } }, '3.50');
    expectEmpty(res, 200);
    expect((await d.show(id)).bootable).toBe('true');
    expectEmpty(await d.action(id, { 'os-set_bootable': { bootable: 'False' } }), 200);
    expect((await d.show(id)).bootable).toBe('false');
  });

  it('validates the body as Cinder does', async () => {
    const id = await d.createVolume();
    const missing = await d.action(id, { 'os-set_bootable': {} });
    expect(missing.body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute os-set_bootable. Value: {}. 'bootable' is a required property",
      ),
    );
    const bad = await d.action(id, { 'os-set_bootable': { bootable: 'perhaps' } });
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toMatch(
      /^Invalid input for field\/attribute bootable\. Value: perhaps\. 'perhaps' is not one of \[True, 'True'/,
    );
  });

  it('refuses a volume in maintenance', async () => {
    const id = await d.createVolume();
    await a.action(id, { 'os-reset_status': { status: 'maintenance' } });
    const res = await d.action(id, { 'os-set_bootable': { bootable: true } });
    expect(res.body).toEqual(fault(400, 'Invalid volume: The volume cannot be updated during maintenance.'));
  });
});

describe('os-update_readonly_flag', () => {
  it('answers 202 and shows the flag in metadata, true or false (captures 246, 247, 253, 254)', async () => {
    const id = await d.createVolume();
    expectEmpty(await d.action(id, { 'os-update_readonly_flag': { readonly: true } }, '3.50'), 202);
    expect((await d.show(id)).metadata).toEqual({ readonly: 'True' });
    expectEmpty(await d.action(id, { 'os-update_readonly_flag': { readonly: false } }, '3.50'), 202);
    expect((await d.show(id)).metadata).toEqual({ readonly: 'False' });
  });

  it('refuses a reserved or in-use volume (captures 252, 269)', async () => {
    const reserved = await d.createVolume();
    await d.reserve(reserved);
    expect((await d.action(reserved, { 'os-update_readonly_flag': { readonly: false } })).body).toEqual(
      fault(
        400,
        `Invalid volume: Volume ${reserved} status must be available to update readonly flag, but current status is: reserved.`,
      ),
    );
    const inUse = await d.createVolume();
    await d.attach(inUse);
    expect((await d.action(inUse, { 'os-update_readonly_flag': { readonly: true } })).body).toEqual(
      fault(
        400,
        `Invalid volume: Volume ${inUse} status must be available to update readonly flag, but current status is: in-use.`,
      ),
    );
  });
});

describe('os-retype', () => {
  it('retypes an available volume to and from multiattach, flipping the flag (captures 261-264)', async () => {
    const id = await d.createVolume();
    expectEmpty(
      await d.action(id, { 'os-retype': { new_type: 'multiattach', migration_policy: 'never' } }),
      202,
    );
    await tc.settle();
    expect(await d.show(id, '3.50')).toMatchObject({
      volume_type: 'multiattach',
      multiattach: true,
      status: 'available',
    });
    expectEmpty(
      await d.action(id, { 'os-retype': { new_type: '__DEFAULT__', migration_policy: 'never' } }),
      202,
    );
    await tc.settle();
    expect(await d.show(id, '3.50')).toMatchObject({ volume_type: '__DEFAULT__', multiattach: false });
  });

  it('answers an unknown type with 404 and the same type with 400 (captures 265, 266)', async () => {
    const id = await d.createVolume();
    expect(
      (await d.action(id, { 'os-retype': { new_type: 'cap2-nosuchtype', migration_policy: 'never' } })).body,
    ).toEqual(fault(404, 'Volume type with name cap2-nosuchtype could not be found.'));
    expect(
      (await d.action(id, { 'os-retype': { new_type: '__DEFAULT__', migration_policy: 'never' } })).body,
    ).toEqual(
      fault(
        400,
        'Invalid volume: Retype needs volume to be in available or in-use state, not be part of an active migration or a consistency group, requested type has to be different that the one from the volume, and for in-use volumes front-end qos specs cannot change.',
      ),
    );
  });

  it('refuses a multiattach change on an in-use volume, either way (captures 267, 268)', async () => {
    const message =
      'Invalid input received: Invalid volume_type passed, retypes affecting multiattach are only allowed on available volumes, the specified volume however currently has a status of: in-use.';
    const plain = await d.createVolume();
    await d.attach(plain);
    expect(
      (await d.action(plain, { 'os-retype': { new_type: 'multiattach', migration_policy: 'never' } })).body,
    ).toEqual(fault(400, message));
    const shared = await d.createVolume({ volume_type: 'multiattach' });
    await d.attach(shared);
    expect((await d.action(shared, { 'os-retype': { new_type: '__DEFAULT__' } })).body).toEqual(
      fault(400, message),
    );
  });

  it('retypes an in-use volume when multiattach does not change; it stays in-use', async () => {
    const name = `gold-${randomUUID().slice(0, 6)}`;
    await a.call('POST', '/types', { body: { volume_type: { name } } });
    const id = await d.createVolume();
    await d.attach(id);
    expectEmpty(await d.action(id, { 'os-retype': { new_type: name } }), 202);
    await tc.settle();
    expect(await d.show(id)).toMatchObject({ volume_type: name, status: 'in-use' });
  });

  it('keeps the old type when the pool cannot host the new one', async () => {
    const name = `far-${randomUUID().slice(0, 6)}`;
    await a.call('POST', '/types', {
      body: {
        volume_type: { name, extra_specs: { volume_backend_name: 'elsewhere', multiattach: '<is> True' } },
      },
    });
    const id = await d.createVolume();
    expectEmpty(await d.action(id, { 'os-retype': { new_type: name } }), 202);
    await tc.settle();
    expect(await d.show(id)).toMatchObject({
      volume_type: '__DEFAULT__',
      status: 'available',
      multiattach: false,
    });
  });

  it('validates the body', async () => {
    const id = await d.createVolume();
    expect(
      (await d.action(id, { 'os-retype': { new_type: 'multiattach', migration_policy: 'later' } })).body,
    ).toEqual(
      fault(
        400,
        "Invalid input for field/attribute migration_policy. Value: later. 'later' is not one of ['on-demand', 'never']",
      ),
    );
    expect((await d.action(id, { 'os-retype': {} })).body).toEqual(
      fault(400, "Invalid input for field/attribute os-retype. Value: {}. 'new_type' is a required property"),
    );
  });
});

describe('os-reset_status', () => {
  it('is admin-only (capture 275), checked after the volume lookup', async () => {
    const id = await d.createVolume();
    expect((await d.action(id, { 'os-reset_status': { status: 'error' } }, '3.50')).body).toEqual(
      fault(403, "Policy doesn't allow volume_extension:volume_admin_actions:reset_status to be performed."),
    );
    const missing = randomUUID();
    expect((await d.action(missing, { 'os-reset_status': { status: 'error' } })).status).toBe(404);
  });

  it('sets the status for an admin on any project (captures 276, 277, 279)', async () => {
    const id = await d.createVolume();
    expectEmpty(await a.action(id, { 'os-reset_status': { status: 'error' } }, '3.50'), 202);
    expect((await d.show(id, '3.50')).status).toBe('error');
    expectEmpty(await a.action(id, { 'os-reset_status': { status: 'AVAILABLE' } }, '3.50'), 202);
    expect((await d.show(id)).status).toBe('available');
    expectEmpty(await a.action(id, { 'os-reset_status': { migration_status: 'migrating' } }), 202);
    expect((await a.show(id)).migration_status).toBe('migrating');
    expectEmpty(await a.action(id, { 'os-reset_status': { migration_status: 'none' } }), 202);
    expect((await a.show(id)).migration_status).toBeNull();
  });

  it('refuses invalid statuses with Cinder’s texts (capture 278)', async () => {
    const id = await d.createVolume();
    const cases: [unknown, string][] = [
      [
        { status: 'cap2-bogus' },
        "Volume status: cap2-bogus is invalid, valid statuses are: ('creating', 'available', 'deleting', 'error', 'error_deleting', 'error_managing', 'managing', 'attaching', 'in-use', 'detaching', 'maintenance', 'restoring-backup', 'error_restoring', 'reserved', 'awaiting-transfer', 'backing-up', 'error_backing-up', 'error_extending', 'downloading', 'uploading', 'retyping', 'extending').",
      ],
      [
        { attach_status: 'half' },
        "Volume attach status: half is invalid, valid statuses are: ['attached', 'detached'].",
      ],
      [
        { migration_status: 'x' },
        "Volume migration status: x is invalid, valid statuses are: ('migrating', 'error', 'success', 'completing', 'none', 'starting').",
      ],
      [{}, "Must specify 'status', 'attach_status' or 'migration_status' for update."],
      [
        { status: 'error', foo: 1 },
        "Invalid input for field/attribute os-reset_status. Value: {'status': 'error', 'foo': 1}. Additional properties are not allowed ('foo' was unexpected)",
      ],
    ];
    for (const [args, message] of cases) {
      const res = await a.action(id, { 'os-reset_status': args }, '3.50');
      expect(res.body).toEqual(fault(400, message));
    }
  });

  it('detaching resets remove the attachments and leave the volume available', async () => {
    const id = await d.createVolume({ volume_type: 'multiattach' });
    await d.attach(id);
    await d.attach(id);
    expectEmpty(
      await a.action(id, { 'os-reset_status': { status: 'error', attach_status: 'detached' } }),
      202,
    );
    expect(await d.show(id)).toMatchObject({ status: 'available', attachments: [] });
    const atts = await d.call('GET', `/attachments?volume_id=${id}`);
    expect(atts.body.attachments).toEqual([]);
  });
});

describe('os-extend', () => {
  it('extends an available volume through the backend (capture 270; our backend succeeds)', async () => {
    const id = await d.createVolume();
    expectEmpty(await d.action(id, { 'os-extend': { new_size: 2 } }, '3.50'), 202);
    await tc.settle();
    expect(await d.show(id)).toMatchObject({ size: 2, status: 'available' });
    expectEmpty(await d.action(id, { 'os-extend': { new_size: '4' } }), 202);
    await tc.settle();
    expect((await d.show(id)).size).toBe(4);
  });

  it('refuses a size that is not greater, before looking at the status (capture 273)', async () => {
    const id = await d.createVolume();
    await a.action(id, { 'os-reset_status': { status: 'error_extending' } });
    expect((await d.action(id, { 'os-extend': { new_size: 1 } }, '3.50')).body).toEqual(
      fault(
        400,
        'Invalid input received: New size for extend must be greater than current size. (current: 1, extended: 1).',
      ),
    );
    expect((await d.action(id, { 'os-extend': { new_size: 2 } })).body).toEqual(
      fault(
        400,
        `Invalid volume: Volume ${id} status must be '{'status': 'available'}' to extend, currently error_extending.`,
      ),
    );
  });

  it('extends an in-use volume from 3.42 only (capture 274)', async () => {
    const id = await d.createVolume();
    await d.attach(id);
    expect((await d.action(id, { 'os-extend': { new_size: 2 } }, '3.41')).body).toEqual(
      fault(
        400,
        `Invalid volume: Volume ${id} status must be '{'status': 'available'}' to extend, currently in-use.`,
      ),
    );
    expectEmpty(await d.action(id, { 'os-extend': { new_size: 2 } }, '3.42'), 202);
    await tc.settle();
    expect(await d.show(id)).toMatchObject({ size: 2, status: 'in-use' });
    await a.action(id, { 'os-reset_status': { status: 'error' } });
    expect((await d.action(id, { 'os-extend': { new_size: 3 } }, '3.42')).body).toEqual(
      fault(
        400,
        `Invalid volume: Volume ${id} status must be '{'status': 'available'}' to extend, currently error.`,
      ),
    );
  });

  it('validates new_size', async () => {
    const id = await d.createVolume();
    expect((await d.action(id, { 'os-extend': { new_size: 'big' } })).body).toEqual(
      fault(400, "Invalid input for field/attribute new_size. Value: big. 'big' does not match '^[0-9]+$'"),
    );
    expect((await d.action(id, { 'os-extend': { new_size: 0 } })).body).toEqual(
      fault(400, 'Invalid input for field/attribute new_size. Value: 0. 0 is less than the minimum of 1'),
    );
    expect((await d.action(id, { 'os-extend': { size: 2 } })).body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute os-extend. Value: {'size': 2}. 'new_size' is a required property",
      ),
    );
  });
});
