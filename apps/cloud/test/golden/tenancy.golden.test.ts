import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { type CompareCaptureOptions, compareCapture, type Json, loadCapture } from './capture.js';

/**
 * Golden tests for key pairs, quotas and limits (captures 550-572): each recorded request is sent
 * to the bundled cloud, in the same state where it matters, and the status, keys, value types and
 * formats compared; fault messages and documents of fixed values exactly. The recorded user ids,
 * project ids and names of the fixtures stand for ours.
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const it = cloudTest({}, { realQuotas: true });
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

const RECORDED_DEMO_USER = 'e0a44ab48f5e4d9cafc1cf8e7ff59f9e';
const RECORDED_DEMO_PROJECT = '086acb3ce560466d918aff4ab0208c56';

/** Replays capture `n` as `session` at the path we give (the captured one, mapped by the caller). */
async function check(n: number, session: Session, path: string, opts: CompareCaptureOptions = {}) {
  const cap = loadCapture(n);
  const version = cap.request.headers['OpenStack-API-Version'];
  const body = cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    token: session.token,
    ...(version ? { version } : {}),
    ...(body !== null && body !== '' ? { body } : {}),
  });
  const diffs = compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    replaceIds: { [RECORDED_DEMO_USER]: demo.userId, [RECORDED_DEMO_PROJECT]: demo.projectId },
    ...opts,
  });
  return { res, diffs };
}

const nova = (p: string) => `/compute/v2.1${p}`;
const PUBLIC_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICMeyPifz/ERmTjtWa0gNK5Q3Rt63igmcgKP0AQaWKcR c2@test';

describe('os-keypairs (captures 550-555, 559-561)', () => {
  it('creates, refuses, shows, lists and deletes as Nova does', async () => {
    // 550: a generated key; the key material differs, its shape does not.
    const created = await check(550, demo, nova('/os-keypairs'), {
      exact: ['$.keypair.name', '$.keypair.type', '$.keypair.user_id'],
    });
    expect(created.diffs).toEqual([]);
    expect(created.res.body.keypair.private_key).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(created.res.body.keypair.public_key).toMatch(/ Generated-by-Nova$/);
    for (const n of [551, 552, 555, 561]) {
      const { diffs } = await check(n, demo, nova('/os-keypairs'), { exact: ['$'] });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
    const shown = await check(553, demo, nova('/os-keypairs/c2-gen'), {
      exact: [
        '$.keypair.name',
        '$.keypair.type',
        '$.keypair.deleted',
        '$.keypair.deleted_at',
        '$.keypair.updated_at',
      ],
    });
    expect(shown.diffs).toEqual([]);
    const missing = await check(554, demo, nova('/os-keypairs/c2-nope'), { exact: ['$'] });
    expect(missing.diffs).toEqual([]);
    const listed = await check(559, demo, nova('/os-keypairs'));
    expect(listed.diffs).toEqual([]);
    const deleted = await check(560, demo, nova('/os-keypairs/c2-gen'));
    expect(deleted.diffs).toEqual([]);
    expect(PUBLIC_KEY).toContain('ssh-ed25519');
  });
});

describe('compute limits and quota sets (captures 556-558, 562-565)', () => {
  it('answers a fresh project as the recorded one', async () => {
    for (const [n, path] of [
      [556, nova('/limits')],
      [557, nova(`/os-quota-sets/${demo.projectId}`)],
      [558, nova(`/os-quota-sets/${demo.projectId}/detail`)],
    ] as const) {
      const { diffs } = await check(n, demo, path, { exact: ['$'] });
      expect(diffs, `capture ${n}`).toEqual([]);
    }
  });

  it('updates, deletes and shows classes with the recorded answers', async () => {
    const path = nova(`/os-quota-sets/${demo.projectId}`);
    expect((await check(562, admin, path, { exact: ['$'] })).diffs).toEqual([]);
    expect((await check(563, admin, path)).diffs).toEqual([]);
    expect((await check(564, demo, nova('/os-quota-class-sets/default'), { exact: ['$'] })).diffs).toEqual(
      [],
    );
    expect((await check(565, admin, nova('/os-quota-class-sets/default'), { exact: ['$'] })).diffs).toEqual(
      [],
    );
  });
});

describe('volume limits and quota sets (captures 566-572)', () => {
  it('shows defaults, usage and limits, updates, refuses over quota, and deletes', async () => {
    const vol = (s: Session, p: string) => `${s.volumeBase}${p}`;
    const target = `/os-quota-sets/${demo.projectId}`;
    // The recorded project held 3 GB in 3 volumes (2 multiattach, 1 default).
    for (const [size, type] of [
      [1, 'multiattach'],
      [1, 'multiattach'],
      [1, undefined],
    ] as const) {
      const res = await http(tc, 'POST', vol(demo, '/volumes'), {
        token: demo.token,
        version: 'volume 3.60',
        body: { volume: { size, ...(type ? { volume_type: type } : {}) } },
      });
      expect(res.status, res.text).toBe(202);
    }
    await tc.settle();
    const sameKeys = (v: Json) => v;
    for (const [n, session, path, exact] of [
      [572, demo, vol(demo, `${target}/defaults`), true],
      [566, demo, vol(demo, `${target}?usage=true`), true],
      [567, demo, vol(demo, '/limits'), true],
      [568, admin, vol(admin, target), true],
      [569, demo, vol(demo, '/volumes'), true],
      [571, admin, vol(admin, target), true],
      [570, admin, vol(admin, target), false],
    ] as const) {
      const { diffs, res } = await check(n, session, path, {
        ...(exact ? { exact: ['$'] } : {}),
        normalize: sameKeys,
      });
      expect(diffs, `capture ${n}`).toEqual([]);
      if (n === 569) expect(res.headers.get('retry-after')).toBe('0');
    }
  });
});
