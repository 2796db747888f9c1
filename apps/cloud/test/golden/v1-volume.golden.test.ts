import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../helpers/cloud.js';
import { cloudTest } from '../helpers/cloud-test.js';
import {
  type CompareCaptureOptions,
  compareCapture,
  loadCapture,
  mapCapturePath,
  replayHeaders,
} from './capture.js';

/**
 * V1's recorded exchanges (captures 600–636): volume metadata and image metadata, strict routing,
 * snapshots and volumes made from them, os-services and os-availability-zone. They are replayed in
 * the recorded order against a cloud brought to the same state (captured ids mapped to ours).
 */
let tc: TestCloud;
let demo: Session;
let admin: Session;
const ids: Record<string, string> = {};

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: d, admin: a }) => {
  tc = cloud;
  demo = d;
  admin = a;
});

const ADMIN_CAPTURES = new Set([629, 631, 634, 635]);
const CAPTURED = {
  volume: 'e0ec0374-7769-4365-8eab-62b3fcdd287c',
  snapshot: '63e0f3e0-df5d-40ac-b2f0-75951912a02c',
  fromSnapshot: 'b17217ed-746c-4aff-b398-c66245833e7e',
};
const VERSION_HEADERS = ['OpenStack-API-Version', 'Vary'];

const replace = (text: string) => {
  let out = text;
  for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
  return out;
};

async function check(n: number, opts: CompareCaptureOptions & { headerNames?: string[] } = {}) {
  const cap = loadCapture(n);
  const session = ADMIN_CAPTURES.has(n) ? admin : demo;
  const path = mapCapturePath(cap.request.url, { projectId: session.projectId, replaceIds: ids });
  const body = cap.request.body;
  const res = await http(tc, cap.request.method, path, {
    headers: replayHeaders(cap, { token: session.token }),
    ...(body !== null && body !== '' ? { rawBody: replace(JSON.stringify(body)) } : {}),
  });
  const { headerNames, ...compare } = opts;
  const names = [...VERSION_HEADERS, ...(headerNames ?? [])];
  const diffs = compareCapture(cap, res.status, res.text === '' ? '' : res.body, {
    formats: true,
    replaceIds: ids,
    baseUrl: tc.url,
    projectId: session.projectId,
    ...compare,
    headers: { actual: res.headers, names, exactValues: names },
  });
  return { res, diffs };
}

const EXACT = { exact: ['$'] };

describe('volume metadata, image metadata and strict routing (captures 600–614)', () => {
  it('600: the volume the captures use', async () => {
    const { res, diffs } = await check(600, {
      exact: ['$.volume.status', '$.volume.size', '$.volume.metadata'],
    });
    expect(diffs).toEqual([]);
    ids[CAPTURED.volume] = res.body.volume.id;
    await tc.settle();
  });

  it.each([601, 603, 604, 605, 606, 607, 608, 609])('capture %i', async (n) => {
    const { diffs } = await check(n, EXACT);
    expect(diffs).toEqual([]);
  });

  it('602: from 3.15 the listing is webob text/html with an MD5 ETag of the body', async () => {
    // Back to the state 602 was recorded in (601's metadata; 603 onwards ran after it).
    await http(tc, 'PUT', `${demo.volumeBase}/volumes/${ids[CAPTURED.volume]}/metadata`, {
      token: demo.token,
      version: 'volume 3.60',
      body: { metadata: { a: '1', b: '2' } },
    });
    const { diffs } = await check(602, { ...EXACT, headerNames: ['Content-Type', 'Etag'] });
    expect(diffs).toEqual([]);
  });

  it.each([610, 611, 612, 613, 614])('capture %i', async (n) => {
    const { diffs } = await check(n, EXACT);
    expect(diffs).toEqual([]);
  });
});

describe('snapshots and volumes from snapshots (captures 615–630, 636)', () => {
  it('615: creates a snapshot (creating); 616: shows it available with the extended attributes', async () => {
    const created = await check(615, {
      exact: [
        '$.snapshot.status',
        '$.snapshot.size',
        '$.snapshot.metadata',
        '$.snapshot.name',
        '$.snapshot.volume_id',
      ],
    });
    expect(created.diffs).toEqual([]);
    ids[CAPTURED.snapshot] = created.res.body.snapshot.id;
    await tc.settle();
    const shown = await check(616, {
      exact: [
        '$.snapshot.status',
        '$.snapshot.os-extended-snapshot-attributes:progress',
        '$.snapshot.metadata',
      ],
    });
    expect(shown.diffs).toEqual([]);
    const recorded = loadCapture(616).response.body as { snapshot: Record<string, unknown> };
    expect(Object.keys(shown.res.body.snapshot)).toEqual(Object.keys(recorded.snapshot));
  });

  it.each([617, 618, 619])('capture %i', async (n) => {
    const { diffs } = await check(n, {
      exact: ['$.snapshots[*].status', '$.snapshot.name', '$.snapshot.description'],
    });
    expect(diffs).toEqual([]);
  });

  it.each([620, 621, 622, 623])('capture %i: refused with Cinder’s message', async (n) => {
    const { diffs } = await check(n, EXACT);
    expect(diffs).toEqual([]);
  });

  it('624: makes a volume from the snapshot; 625: shows it', async () => {
    const created = await check(624, { exact: ['$.volume.size', '$.volume.snapshot_id', '$.volume.status'] });
    expect(created.diffs).toEqual([]);
    ids[CAPTURED.fromSnapshot] = created.res.body.volume.id;
    await tc.settle();
    const shown = await check(625, {
      exact: ['$.volume.size', '$.volume.snapshot_id', '$.volume.status', '$.volume.bootable'],
      // The backend's service uuid and shared_targets are the deployment's own.
      ignore: ['$.volume.service_uuid', '$.volume.shared_targets'],
    });
    expect(shown.diffs).toEqual([]);
  });

  it.each([626, 627, 628, 629, 630, 636])('capture %i', async (n) => {
    const { diffs } = await check(n, EXACT);
    expect(diffs).toEqual([]);
  });
});

describe('os-services and os-availability-zone (captures 631–635)', () => {
  it('631: the services as the admin sees them (hosts are the deployment’s own)', async () => {
    const { diffs, res } = await check(631, {
      pairwiseArrays: ['$.services'],
      exact: ['$.services[*].binary', '$.services[*].status', '$.services[*].state', '$.services[*].zone'],
    });
    expect(diffs).toEqual([]);
    expect(res.body.services.map((s: { host: string }) => s.host)).toEqual(['cloud', 'cloud@lvmdriver-1']);
  });

  it.each([632, 633, 634, 635])('capture %i', async (n) => {
    const { diffs } = await check(n, EXACT);
    expect(diffs).toEqual([]);
  });
});
