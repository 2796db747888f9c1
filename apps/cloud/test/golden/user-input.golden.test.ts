import { describe, expect } from 'vitest';
import { bfvBody } from '../api/compute/servers-fixtures.js';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import { createVolume } from '../helpers/volume-fixtures.js';
import {
  type Capture,
  compareCapture,
  type Json,
  loadCapture,
  mapCapturePath,
  replayHeaders,
} from './capture.js';

/**
 * Hostile or careless input against the recorded Nova and Cinder (captures 400-424): the
 * servers list's regex filters (values that are not regular expressions, MySQL's REGEXP
 * semantics) and the references a volume create names (an image, snapshot, source volume,
 * backup, group or zone that does not exist, a source that cannot be copied). Each request is
 * replayed with our ids in place of the recorded ones; status, keys, types, formats and the
 * fault message must be the recorded ones.
 */
let tc: TestCloud;
let demo: Session;
const ids: Record<string, string> = {};

/** The server captures 403, 404, 407 and 408 ran against, and 424's source volume. */
const RECORDED = {
  server: '44b05db2-c155-46aa-a23f-b32a2f564ad2',
  errorSource: '26ec5656-e333-4bc9-a7cf-0f8e004f889e',
};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
  // As recorded: `CloudInput-Abc|x`, booted from a volume in zone nova.
  const boot = await createVolume(tc, { projectId: demo.projectId, bootable: true });
  const res = await http(tc, 'POST', '/compute/v2.1/servers', {
    token: demo.token,
    version: 'compute 2.60',
    body: bfvBody(boot, { name: 'CloudInput-Abc|x', availability_zone: 'nova' }),
  });
  expect(res.status, res.text).toBe(202);
  ids[RECORDED.server] = res.body.server.id;
  ids[RECORDED.errorSource] = await createVolume(tc, { projectId: demo.projectId, status: 'error' });
  await tc.settle();
});

async function replay(n: number): Promise<{ capture: Capture; status: number; body: Json; diffs: string[] }> {
  const capture = loadCapture(n);
  const path = mapCapturePath(capture.request.url, { projectId: demo.projectId, replaceIds: ids });
  let body = capture.request.body === null ? undefined : JSON.stringify(capture.request.body);
  for (const [from, to] of Object.entries(ids)) body = body?.split(from).join(to);
  const res = await http(tc, capture.request.method, path, {
    headers: replayHeaders(capture, { token: demo.token }),
    ...(body !== undefined ? { rawBody: body } : {}),
  });
  const diffs = compareCapture(capture, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    replaceIds: ids,
    baseUrl: tc.url,
    projectId: demo.projectId,
  });
  return { capture, status: res.status, body: res.body as Json, diffs };
}

/** Same status and shape, and the very message recorded. */
async function expectSameFault(n: number) {
  const got = await replay(n);
  expect(got.diffs, got.capture.file).toEqual([]);
  const [name, recorded] = Object.entries(
    got.capture.response.body as Record<string, { message: string }>,
  )[0]!;
  expect((got.body as Record<string, { message: string }>)[name]?.message, got.capture.file).toBe(
    recorded.message,
  );
}

describe('servers list: regex filters (400-409)', () => {
  it('a value that is not a regular expression: 400 with the recorded message (400-402, 406, 409)', async () => {
    for (const n of [400, 401, 402, 406, 409]) await expectSameFault(n);
  });

  it('case-insensitive search with `|` as text, a nested quantifier, hostname, zone, reservation (403, 404, 407, 408)', async () => {
    for (const n of [403, 404, 407, 408]) {
      const got = await replay(n);
      expect(got.diffs, got.capture.file).toEqual([]);
      const recorded = (got.capture.response.body as { servers: unknown[] }).servers.length;
      expect((got.body as { servers: unknown[] }).servers, got.capture.file).toHaveLength(recorded);
    }
  });
});

describe('volume create: references that do not exist or cannot be used (410-421, 424)', () => {
  it('an unknown image, by id, by name, as a URL or as image_id (410-412, 421)', async () => {
    for (const n of [410, 411, 412, 421]) await expectSameFault(n);
  });

  it('an unknown snapshot, source volume, backup, zone, group or consistency group (413-418)', async () => {
    for (const n of [413, 414, 415, 416, 417, 418]) await expectSameFault(n);
  });

  it('several unknown references: the one Cinder looks up first is reported (419, 420)', async () => {
    for (const n of [419, 420]) await expectSameFault(n);
  });

  it('a source volume in error cannot be copied (424)', async () => {
    await expectSameFault(424);
  });

  it('none of them left a volume behind', async () => {
    const res = await http(tc, 'GET', `${demo.volumeBase}/volumes?name=cloudinput-ref`, {
      token: demo.token,
      version: 'volume 3.60',
    });
    expect(res.body.volumes).toEqual([]);
  });
});
