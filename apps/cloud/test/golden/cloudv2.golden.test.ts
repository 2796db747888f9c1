import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { type CompareCaptureOptions, compareCapture, loadCapture } from './capture.js';

/**
 * Golden tests for Cinder's user messages (captures 800-813): the reference's scenario (a volume
 * type no backend satisfies, a volume of it going to error) is replayed on the bundled cloud and
 * each recorded request compared: status, keys, value types and formats; the message's fixed
 * texts and fault messages exactly.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

/** The fields of a message that are the same on every cloud. */
const FIXED = ['event_id', 'user_message', 'message_level', 'resource_type'];
const fixedIn = (root: string) => FIXED.map((k) => `${root}.${k}`);

async function check(
  n: number,
  session: Session,
  path: string,
  opts: CompareCaptureOptions & { body?: unknown } = {},
) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const { body, ...compare } = opts;
  const res = await http(tc, cap.request.method, `${session.volumeBase}${path}`, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  return {
    res,
    diffs: compareCapture(cap, res.status, res.text === '' ? '' : res.body, { formats: true, ...compare }),
  };
}

describe('Cinder user messages (captures 800-813)', () => {
  it('reports the volume the scheduler could not place, as Cinder does', async () => {
    const typeBody = loadCapture(800).request.body as {
      volume_type: { extra_specs: Record<string, string> };
    };
    const type = await check(800, admin, '/types', {
      body: { volume_type: { ...typeBody.volume_type, name: 'cloudv2-unsatisfiable' } },
      exact: ['$.volume_type.extra_specs'],
    });
    expect(type.diffs).toEqual([]);
    const typeId = type.res.body.volume_type.id as string;
    const created = await check(801, demo, '/volumes', {
      body: { volume: { size: 1, volume_type: typeId } },
    });
    expect(created.diffs).toEqual([]);
    const volumeId = created.res.body.volume.id as string;
    await tc.settle();
    const shown = await check(802, demo, `/volumes/${volumeId}`, { exact: ['$.volume.status'] });
    expect(shown.diffs).toEqual([]);

    const listed = await check(803, demo, '/messages', { exact: fixedIn('$.messages[*]') });
    expect(listed.diffs).toEqual([]);
    const [message] = listed.res.body.messages as { id: string; resource_uuid: string }[];
    expect(message?.resource_uuid).toBe(volumeId);
    const id = (message as { id: string }).id;
    expect((await check(804, demo, `/messages/${id}`, { exact: fixedIn('$.message') })).diffs).toEqual([]);
    expect((await check(807, admin, '/messages', { exact: fixedIn('$.messages[*]') })).diffs).toEqual([]);
    expect((await check(809, admin, `/messages/${id}`, { exact: fixedIn('$.message') })).diffs).toEqual([]);
    const filtered = await check(810, demo, `/messages?resource_uuid=${volumeId}`, {
      exact: fixedIn('$.messages[*]'),
    });
    expect(filtered.diffs).toEqual([]);
    const paged = await check(811, demo, '/messages?limit=1&sort=created_at:desc', {
      exact: fixedIn('$.messages[*]'),
    });
    expect(paged.diffs).toEqual([]);

    const deleted = await check(812, demo, `/messages/${id}`);
    expect(deleted.diffs).toEqual([]);
    expect(deleted.res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const gone = await check(813, demo, `/messages/${id}`, {
      exact: ['$'],
      replaceIds: { [loadCapture(813).request.url.split('/').at(-1) as string]: id },
    });
    expect(gone.diffs).toEqual([]);
  });

  it('has no messages below 3.3 and 404s a missing one to GET and DELETE', async () => {
    const missing = '00000000-0000-0000-0000-000000000000';
    for (const [n, path] of [
      [805, '/messages'],
      [806, `/messages/${missing}`],
      [808, `/messages/${missing}`],
    ] as const) {
      const { diffs } = await check(n, demo, path, { exact: ['$'] });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });
});

describe('Cinder volume type encryption (captures 814-829)', () => {
  /** The type id of the recording, swapped for ours in paths and messages. */
  const recordedType = () =>
    (loadCapture(814).response.body as { volume_type: { id: string } }).volume_type.id;

  /** Replays a capture with its own body, on our type. */
  async function replay(n: number, session: Session, typeId: string, opts: CompareCaptureOptions = {}) {
    const cap = loadCapture(n);
    const path = cap.request.url.replace(/^.*\/v3\/[0-9a-f]+/, '').replaceAll(recordedType(), typeId);
    return check(n, session, path, {
      ...(cap.request.body !== undefined && cap.request.body !== null ? { body: cap.request.body } : {}),
      replaceIds: { [recordedType()]: typeId },
      ...opts,
    });
  }

  it('creates, shows, updates and deletes a type’s encryption as Cinder does', async () => {
    const type = await check(814, admin, '/types', { body: { volume_type: { name: 'cloudv2-encrypted' } } });
    expect(type.diffs).toEqual([]);
    const typeId = type.res.body.volume_type.id as string;
    const exact = (...paths: string[]) => ({ exact: paths });
    const steps: [number, Session, CompareCaptureOptions][] = [
      [
        815,
        admin,
        exact(
          '$.encryption.provider',
          '$.encryption.control_location',
          '$.encryption.cipher',
          '$.encryption.key_size',
          '$.encryption.volume_type_id',
        ),
      ],
      [
        816,
        admin,
        exact(
          '$.provider',
          '$.control_location',
          '$.cipher',
          '$.key_size',
          '$.deleted',
          '$.deleted_at',
          '$.updated_at',
          '$.volume_type_id',
        ),
      ],
      [817, admin, exact('$')],
      [818, admin, exact('$')],
      [819, admin, exact('$')],
      [820, demo, exact('$')],
      [821, demo, exact('$')],
      [823, admin, {}],
      [824, admin, exact('$')],
      [825, admin, exact('$')],
      [826, admin, exact('$')],
      [827, admin, exact('$')],
      [828, admin, exact('$')],
      [829, admin, exact('$')],
    ];
    for (const [n, session, opts] of steps) {
      const { diffs } = await replay(n, session, typeId, opts);
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });

  it('404s the encryption of a type that does not exist', async () => {
    const missing = '00000000-0000-0000-0000-000000000000';
    const { diffs } = await replay(822, admin, missing, { exact: ['$'] });
    expect(diffs).toEqual([]);
  });
});
