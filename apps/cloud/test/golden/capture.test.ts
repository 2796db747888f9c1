import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Json,
  type JsonObject,
  capturesDir,
  compareCapture,
  compareShapes,
  formatPath,
  headerDiff,
  listCaptures,
  loadCapture,
  loadCaptureJson,
  looksLikeHexId,
  looksLikeIsoTime,
  looksLikeRequestId,
  looksLikeUuid,
  mapCapturePath,
  mapCaptureUrl,
  parsePathPattern,
  pathMatches,
  replayHeaders,
  shapeOf,
  stringFormatOf,
  timeFormatOf,
} from './capture.js';

const PID = 'fcbcf9fc32c649909405771074021b99';
const VOL = '0155e063-a222-4d63-b764-c99019bdcf50';
const OUR_PID = '0123456789abcdef0123456789abcdef';

function obj(v: Json | undefined): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
  return v;
}

function volumeOf(body: Json): JsonObject {
  return obj(obj(body)['volume']);
}

describe('locating and loading captures', () => {
  it('reads the captures kept in the repository, beside the helpers', () => {
    expect(capturesDir()).toBe(join(dirname(fileURLToPath(import.meta.url)), 'captures'));
    expect(listCaptures().length).toBeGreaterThan(200);
    expect(listCaptures()[0]).toBe('01-nova-versions.json');
  });

  it('honours ORACLE_CAPTURES_DIR and reports a bad one clearly', () => {
    const real = capturesDir();
    const prev = process.env['ORACLE_CAPTURES_DIR'];
    const tmp = mkdtempSync(join(tmpdir(), 'caps-'));
    try {
      mkdirSync(join(tmp, 'x'));
      process.env['ORACLE_CAPTURES_DIR'] = join(tmp, 'x');
      expect(capturesDir()).toBe(join(tmp, 'x'));
      expect(() => loadCapture(5)).toThrow(/no capture numbered 5/);
      process.env['ORACLE_CAPTURES_DIR'] = join(tmp, 'missing');
      expect(() => capturesDir()).toThrow(/ORACLE_CAPTURES_DIR=.*not a directory/);
      process.env['ORACLE_CAPTURES_DIR'] = real;
      expect(loadCapture(5).file).toBe('05-cinder-volume-show-available.json');
    } finally {
      if (prev === undefined) delete process.env['ORACLE_CAPTURES_DIR'];
      else process.env['ORACLE_CAPTURES_DIR'] = prev;
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('loads by number, padded number, name prefix and full file name', () => {
    const names = [5, '5', '05', '05-cinder-volume-show', '05-cinder-volume-show-available.json'];
    for (const n of names) expect(loadCapture(n).file).toBe('05-cinder-volume-show-available.json');
    expect(loadCapture(100).file).toBe('100-nova-flavors-detail-2.75.json');
  });

  it('parses the capture format', () => {
    const c = loadCapture(5);
    expect(c.request.method).toBe('GET');
    expect(c.request.url).toBe(`http://127.0.0.1:8776/v3/${PID}/volumes/${VOL}`);
    expect(c.request.headers['OpenStack-API-Version']).toBe('volume 3.50');
    expect(c.request.body).toBeNull();
    expect(c.response.status).toBe(200);
    expect(c.response.reason).toBe('OK');
    expect(c.response.headers['Vary']).toBe('OpenStack-API-Version');
    expect(volumeOf(c.response.body)['multiattach']).toBe(true);
    expect(typeof c.elapsed_ms).toBe('number');
  });

  it('returns a fresh copy each time', () => {
    const a = loadCapture(5);
    delete volumeOf(a.response.body)['name'];
    expect(volumeOf(loadCapture(5).response.body)['name']).toBe('ma-root-894b77');
  });

  it('keeps empty and non-JSON bodies as strings', () => {
    expect(loadCapture(7).response.body).toBe('');
    expect(typeof loadCapture(141).request.body).toBe('string');
  });

  it('rejects unknown, ambiguous and non-exchange files clearly', () => {
    expect(() => loadCapture(9999)).toThrow(/no capture numbered 9999/);
    expect(() => loadCapture('nope-nothing')).toThrow(/no capture named "nope-nothing"/);
    expect(loadCapture('1').file).toBe('01-nova-versions.json');
    expect(loadCapture('10').file).toBe('10-cinder-create-plain-volume.json');
    expect(() => loadCapture(199)).toThrow(/not an HTTP exchange/);
    expect(obj(loadCaptureJson(199))['what']).toBeDefined();
  });

  it('prepares request headers for replay', () => {
    const h = replayHeaders(loadCapture(5), { token: 'tok' });
    expect(h).toEqual({
      'x-auth-token': 'tok',
      accept: 'application/json',
      'openstack-api-version': 'volume 3.50',
    });
    expect(replayHeaders(loadCapture(5))['x-auth-token']).toBeUndefined();
  });
});

describe('mapCapturePath', () => {
  it('maps Keystone URLs', () => {
    expect(mapCapturePath(loadCapture(65).request.url)).toBe('/identity/');
    expect(mapCapturePath(loadCapture(66).request.url)).toBe('/identity/v3');
    expect(mapCapturePath(loadCapture(67).request.url)).toBe('/identity/v3/auth/tokens');
    expect(mapCapturePath(loadCapture(75).request.url)).toBe('/identity/v3/auth/tokens?nocatalog');
  });

  it('maps Nova URLs', () => {
    expect(mapCapturePath(loadCapture(1).request.url)).toBe('/compute/v2.1/');
    expect(mapCapturePath('http://127.0.0.1:8774/')).toBe('/compute/');
    expect(mapCapturePath('http://127.0.0.1:8774')).toBe('/compute/');
    const show = loadCapture(9).request.url;
    expect(mapCapturePath(show)).toBe('/compute/v2.1/servers/fc182e0e-cbd6-47a4-87a2-55d6d73f525b');
    expect(
      mapCapturePath(show, { replaceIds: { 'fc182e0e-cbd6-47a4-87a2-55d6d73f525b': 'our-server' } }),
    ).toBe('/compute/v2.1/servers/our-server');
  });

  it('maps Cinder URLs, replacing the project id when asked and keeping the query string', () => {
    expect(mapCapturePath(loadCapture(2).request.url)).toBe('/volume/');
    expect(mapCapturePath(loadCapture(221).request.url)).toBe('/volume/v3/');
    expect(mapCapturePath(loadCapture(221).request.url, { projectId: OUR_PID })).toBe('/volume/v3/');
    const show = loadCapture(5).request.url;
    expect(mapCapturePath(show)).toBe(`/volume/v3/${PID}/volumes/${VOL}`);
    expect(mapCapturePath(show, { projectId: OUR_PID, replaceIds: { [VOL]: 'v1' } })).toBe(
      `/volume/v3/${OUR_PID}/volumes/v1`,
    );
    const page = loadCapture(241).request.url;
    expect(
      mapCapturePath(page, {
        projectId: OUR_PID,
        replaceIds: { '61df8e28-c258-4d67-ba9c-799fdcb7f2dc': 'm' },
      }),
    ).toBe(`/volume/v3/${OUR_PID}/volumes?limit=2&marker=m`);
    expect(mapCapturePath(loadCapture(244).request.url, { projectId: OUR_PID })).toBe(
      `/volume/v3/${OUR_PID}/volumes/detail?limit=2&sort=name:asc`,
    );
  });

  it('maps every captured request URL', () => {
    for (const f of listCaptures()) {
      if (f.startsWith('199-') || f.startsWith('299-')) continue;
      const c = loadCapture(f);
      const p = mapCapturePath(c.request.url, { projectId: OUR_PID });
      expect(p).toMatch(/^\/(identity|compute|volume|image)\//);
      expect(p).not.toContain(PID);
      expect(p.includes('?')).toBe(c.request.url.includes('?'));
    }
  });

  it('maps Cinder bookmark links and Glance, keeps our own paths, rejects other services', () => {
    expect(mapCapturePath(`http://127.0.0.1:8776/${PID}/volumes/${VOL}`, { projectId: OUR_PID })).toBe(
      `/volume/${OUR_PID}/volumes/${VOL}`,
    );
    expect(mapCapturePath('http://127.0.0.1:9292/v2/images?limit=1')).toBe('/image/v2/images?limit=1');
    expect(mapCapturePath('/compute/v2.1/servers')).toBe('/compute/v2.1/servers');
    expect(() => mapCapturePath('http://127.0.0.1:9696/v2.0/ports')).toThrow(/no emulated service/);
    expect(() => mapCapturePath('servers')).toThrow(/not a URL/);
  });

  it('maps absolute URLs onto a base URL', () => {
    expect(mapCaptureUrl('http://127.0.0.1:8774/v2.1/', { baseUrl: 'http://localhost:9000/' })).toBe(
      'http://localhost:9000/compute/v2.1/',
    );
    expect(mapCaptureUrl('http://127.0.0.1:9696', { baseUrl: 'http://x' })).toBe('http://127.0.0.1:9696');
    expect(mapCaptureUrl('https://docs.openstack.org/', { baseUrl: 'http://x' })).toBe(
      'https://docs.openstack.org/',
    );
  });
});

describe('formats', () => {
  it('recognises ids', () => {
    expect(looksLikeUuid(VOL)).toBe(true);
    expect(looksLikeUuid(VOL.toUpperCase())).toBe(false);
    expect(looksLikeUuid(PID)).toBe(false);
    expect(looksLikeHexId(PID)).toBe(true);
    expect(looksLikeHexId(VOL)).toBe(false);
    expect(looksLikeHexId(`${PID}0`)).toBe(false);
    expect(looksLikeRequestId('req-162c7cb7-24c4-49f5-b73c-444074c16582')).toBe(true);
    expect(looksLikeRequestId(VOL)).toBe(false);
    expect(looksLikeUuid(42)).toBe(false);
  });

  it('recognises the three OpenStack time formats', () => {
    expect(timeFormatOf('2026-11-21T12:22:04.000000')).toBe('time-micro');
    expect(timeFormatOf('2026-11-21T12:22:05Z')).toBe('time-z');
    expect(timeFormatOf('2026-11-22T12:54:11.000000Z')).toBe('time-micro-z');
    expect(timeFormatOf('2026-11-21T12:22:05+00:00')).toBe('time-other');
    expect(timeFormatOf('2026-11-21')).toBeNull();
    expect(timeFormatOf('available')).toBeNull();
    expect(looksLikeIsoTime('2026-11-21T12:22:05Z')).toBe(true);
    expect(looksLikeIsoTime(null)).toBe(false);
  });

  it('classifies strings', () => {
    expect(stringFormatOf(VOL)).toBe('uuid');
    expect(stringFormatOf(PID)).toBe('hex-id');
    expect(stringFormatOf('req-162c7cb7-24c4-49f5-b73c-444074c16582')).toBe('req-id');
    expect(stringFormatOf('ma-root-894b77')).toBeNull();
  });

  it('finds the three time formats in the real captures', () => {
    expect(timeFormatOf(volumeOf(loadCapture(5).response.body)['created_at'])).toBe('time-micro');
    expect(timeFormatOf(obj(obj(loadCapture(9).response.body)['server'])['created'])).toBe('time-z');
    expect(timeFormatOf(obj(obj(loadCapture(73).response.body)['token'])['expires_at'])).toBe('time-micro-z');
  });
});

describe('paths and patterns', () => {
  it('formats paths', () => {
    expect(formatPath([])).toBe('$');
    expect(formatPath(['volume', 'attachments', 0, 'host_name'])).toBe('$.volume.attachments[0].host_name');
    expect(formatPath(['volume', 'os-vol-tenant-attr:tenant_id'])).toBe(
      '$.volume.os-vol-tenant-attr:tenant_id',
    );
    expect(formatPath(['a.b', 'c d'])).toBe('$["a.b"]["c d"]');
  });

  it('matches glob-ish patterns', () => {
    const p = ['volumes', 3, 'name'];
    expect(pathMatches('$.volumes[*].name', p)).toBe(true);
    expect(pathMatches('$.volumes.*.name', p)).toBe(true);
    expect(pathMatches('$.*[*].name', p)).toBe(true);
    expect(pathMatches('$.volumes[3].name', p)).toBe(true);
    expect(pathMatches('$.volumes[2].name', p)).toBe(false);
    expect(pathMatches('$.volumes[*]', p)).toBe(false);
    expect(pathMatches('volumes[*].name', p)).toBe(true);
    expect(pathMatches('$..name', p)).toBe(true);
    expect(pathMatches('$.**.name', p)).toBe(true);
    expect(pathMatches('$..id', p)).toBe(false);
    expect(pathMatches('$.volume.os-vol-*', ['volume', 'os-vol-tenant-attr:tenant_id'])).toBe(true);
    expect(pathMatches('$["a.b"].c', ['a.b', 'c'])).toBe(true);
    expect(pathMatches('$', [])).toBe(true);
    expect(parsePathPattern('$.a[*].b')).toHaveLength(3);
    expect(() => parsePathPattern('$.a[')).toThrow(/bad path pattern/);
  });
});

describe('shapeOf', () => {
  it('describes types, keys and first array items', () => {
    expect(shapeOf({ a: [1, 'x'], b: null, c: { d: true }, e: [] })).toEqual({
      type: 'object',
      properties: {
        a: { type: 'array', items: { type: 'number' } },
        b: { type: 'null' },
        c: { type: 'object', properties: { d: { type: 'boolean' } } },
        e: { type: 'array', items: null },
      },
    });
    expect(shapeOf('s')).toEqual({ type: 'string' });
  });
});

describe('compareShapes', () => {
  const captured = () => loadCapture(5).response.body;

  it('a capture matches itself', () => {
    expect(compareShapes(captured(), captured())).toEqual([]);
    expect(compareShapes(captured(), captured(), { formats: true })).toEqual([]);
    for (const n of [1, 2, 9, 67, 126, 241]) {
      const b = loadCapture(n).response.body;
      expect(compareShapes(b, loadCapture(n).response.body, { formats: true }), `capture ${n}`).toEqual([]);
    }
  });

  it('reports missing and extra keys separately, with paths', () => {
    const actual = captured();
    delete volumeOf(actual)['replication_status'];
    volumeOf(actual)['bogus'] = 1;
    expect(compareShapes(captured(), actual)).toEqual([
      '$.volume.replication_status: missing key (expected null null)',
      '$.volume.bogus: extra key (got number 1)',
    ]);
  });

  it('reports type differences', () => {
    const actual = captured();
    volumeOf(actual)['bootable'] = false; // Cinder says "false" (a string)
    volumeOf(actual)['size'] = '1';
    const diffs = compareShapes(captured(), actual);
    expect(diffs).toHaveLength(2);
    expect(diffs[0]).toBe('$.volume.size: type differs: expected number 1, got string "1"');
    expect(diffs[1]).toMatch(
      /^\$\.volume\.bootable: type differs: expected string "false", got boolean false$/,
    );
  });

  it('nullable paths accept null against a value and vice versa', () => {
    const actual = captured();
    volumeOf(actual)['name'] = null;
    volumeOf(actual)['description'] = 'a description';
    expect(compareShapes(captured(), actual)).toHaveLength(2);
    expect(
      compareShapes(captured(), actual, { nullable: ['$.volume.name', '$.volume.description'] }),
    ).toEqual([]);
    expect(compareShapes(captured(), actual, { nullable: ['$.*.name', '$..description'] })).toEqual([]);
  });

  it('ignore skips keys and whole subtrees', () => {
    const actual = captured();
    delete volumeOf(actual)['service_uuid'];
    volumeOf(actual)['links'] = 'x';
    volumeOf(actual)['extra'] = {};
    expect(compareShapes(captured(), actual)).toHaveLength(3);
    expect(
      compareShapes(captured(), actual, {
        ignore: ['$.volume.service_uuid', '$.volume.links', '$.volume.extra'],
      }),
    ).toEqual([]);
  });

  it('compares every actual array element with the first expected element', () => {
    const expected: Json = { xs: [{ a: 1, b: 'x' }] };
    expect(
      compareShapes(expected, {
        xs: [
          { a: 2, b: 'y' },
          { a: 3, b: 'z' },
        ],
      }),
    ).toEqual([]);
    expect(compareShapes(expected, { xs: [{ a: 2, b: 'y' }, { a: 3 }] })).toEqual([
      '$.xs[1].b: missing key (expected string "x")',
    ]);
    expect(compareShapes({ xs: [] }, { xs: [1, 'two', null] })).toEqual([]);
    expect(compareShapes({ xs: [] }, { xs: {} })).toHaveLength(1);
  });

  it('heterogeneous captured arrays: best-matching element by default, first element on request', () => {
    // Nova's version document: links = [self {rel, href}, describedby {rel, type, href}].
    const body = loadCapture(1).response.body;
    expect(compareShapes(body, loadCapture(1).response.body)).toEqual([]);
    expect(compareShapes(body, loadCapture(1).response.body, { arrayItems: 'first' })).toEqual([
      '$.version.links[1].type: extra key (got string "text/html")',
    ]);
    // When no expected element fits, the differences against the closest one are reported.
    const expected: Json = { xs: [{ a: 1 }, { a: 1, b: 'x', c: true, d: null }] };
    expect(compareShapes(expected, { xs: [{ a: 1, b: 'x', c: true }] })).toEqual([
      '$.xs[0].d: missing key (expected null null)',
    ]);
    // Ties go to the first element.
    expect(compareShapes(expected, { xs: [{ a: 1, b: 'x' }] })).toEqual([
      '$.xs[0].b: extra key (got string "x")',
    ]);
  });

  it('an empty actual array needs allowEmptyArrays or lenientArrays', () => {
    const expected: Json = { volume: { attachments: [{ id: 'a' }] } };
    const actual: Json = { volume: { attachments: [] } };
    expect(compareShapes(expected, actual)).toEqual([
      '$.volume.attachments: expected a non-empty array (1 item(s) captured), got []',
    ]);
    expect(compareShapes(expected, actual, { allowEmptyArrays: true })).toEqual([]);
    expect(compareShapes(expected, actual, { lenientArrays: ['$.volume.attachments'] })).toEqual([]);
    expect(compareShapes(expected, actual, { lenientArrays: ['$.volume.other'] })).toHaveLength(1);
  });

  it('pairwise arrays compare index by index and check the length', () => {
    const expected: Json = { links: [{ rel: 'self' }, { rel: 'bookmark' }] };
    expect(compareShapes(expected, { links: [{ rel: 'self' }] }, { pairwiseArrays: ['$.links'] })).toEqual([
      '$.links: array length differs: expected 2, got 1',
    ]);
  });

  it('exact paths compare values, with id and URL normalisation', () => {
    const expected = captured();
    const actual = captured();
    volumeOf(actual)['status'] = 'in-use';
    expect(compareShapes(expected, actual)).toEqual([]);
    expect(compareShapes(expected, actual, { exact: ['$.volume.status', '$.volume.multiattach'] })).toEqual([
      '$.volume.status: value differs: expected string "available", got string "in-use"',
    ]);

    const ours = captured();
    const v = volumeOf(ours);
    v['id'] = 'our-vol';
    v['os-vol-tenant-attr:tenant_id'] = OUR_PID;
    v['links'] = [
      { rel: 'self', href: `http://localhost:9000/volume/v3/${OUR_PID}/volumes/our-vol` },
      { rel: 'bookmark', href: `http://localhost:9000/volume/${OUR_PID}/volumes/our-vol` },
    ];
    const opts = {
      exact: ['$.volume.id', '$.volume.links', '$.volume.os-vol-tenant-attr:tenant_id'],
      replaceIds: { [VOL]: 'our-vol', [PID]: OUR_PID },
      baseUrl: 'http://localhost:9000',
      projectId: OUR_PID,
    };
    expect(compareShapes(expected, ours, opts)).toEqual([]);
    const wrong = captured();
    const links = volumeOf(wrong)['links'];
    if (!Array.isArray(links)) throw new Error('links');
    links.reverse();
    const diffs = compareShapes(expected, wrong, { exact: ['$.volume.links'] });
    expect(diffs).toContain(
      '$.volume.links[0].rel: value differs: expected string "self", got string "bookmark"',
    );
  });

  it('custom normalisation applies to exact comparisons', () => {
    const diffs = compareShapes(
      { m: 'Volume ABC not found' },
      { m: 'volume abc not found' },
      {
        exact: ['$.m'],
        normalize: (value) => (typeof value === 'string' ? value.toLowerCase() : value),
      },
    );
    expect(diffs).toEqual([]);
  });

  it('formats: a Nova time in a Cinder field is reported', () => {
    const actual = captured();
    volumeOf(actual)['created_at'] = '2026-11-21T12:22:05Z';
    expect(compareShapes(captured(), actual)).toEqual([]);
    expect(compareShapes(captured(), actual, { formats: true })).toEqual([
      '$.volume.created_at: format differs: expected time-micro like "2026-11-21T12:23:12.000000", ' +
        'got time-z "2026-11-21T12:22:05Z"',
    ]);
  });

  it('formats: ids keep their kind (uuid, 32-hex, req-uuid)', () => {
    const actual = captured();
    volumeOf(actual)['id'] = 'vol-1';
    volumeOf(actual)['user_id'] = VOL; // a uuid where Keystone has a 32-hex id
    volumeOf(actual)['name'] = 'anything goes';
    const diffs = compareShapes(captured(), actual, { formats: true });
    expect(diffs).toHaveLength(2);
    expect(diffs[0]).toMatch(/^\$\.volume\.id: format differs: expected uuid .* got free text "vol-1"$/);
    expect(diffs[1]).toMatch(/^\$\.volume\.user_id: format differs: expected hex-id .* got uuid/);
    expect(
      compareShapes({ r: 'req-162c7cb7-24c4-49f5-b73c-444074c16582' }, { r: VOL }, { formats: true }),
    ).toHaveLength(1);
    expect(
      compareShapes({ t: '2026-11-21T12:22:05+00:00' }, { t: '2026-11-21T12:22:05+0000' }, { formats: true }),
    ).toHaveLength(1);
  });

  it('formats: a Keystone token with a Nova time is reported', () => {
    const expected = loadCapture(73).response.body;
    const actual = loadCapture(73).response.body;
    obj(obj(actual)['token'])['expires_at'] = '2026-11-22T12:54:12Z';
    expect(compareShapes(expected, actual, { formats: true })).toEqual([
      '$.token.expires_at: format differs: expected time-micro-z like "2026-11-22T12:54:12.000000Z", ' +
        'got time-z "2026-11-22T12:54:12Z"',
    ]);
  });
});

describe('compareCapture', () => {
  it('checks the status and the body', () => {
    const c = loadCapture(5);
    expect(compareCapture(c, 200, loadCapture(5).response.body)).toEqual([]);
    const body = loadCapture(5).response.body;
    delete volumeOf(body)['group_id'];
    expect(compareCapture(c, 404, body)).toEqual([
      'status: expected 200, got 404',
      '$.volume.group_id: missing key (expected null null)',
    ]);
  });

  it('handles empty bodies', () => {
    const c = loadCapture(7); // os-set_bootable: 200 with an empty body
    expect(compareCapture(c, 200, '')).toEqual([]);
    expect(compareCapture(c, 200, undefined)).toEqual([]);
    expect(compareCapture(c, 200, {})).toEqual(['$: body differs: expected string "", got object {}']);
    expect(compareCapture(loadCapture(5), 200, '')).toHaveLength(1);
  });

  it('passes options through and can check headers', () => {
    const c = loadCapture(5);
    const body = loadCapture(5).response.body;
    volumeOf(body)['updated_at'] = '2026-11-21T12:22:05Z';
    const diffs = compareCapture(c, 200, body, {
      formats: true,
      headers: {
        actual: { 'content-type': 'application/json', 'openstack-api-version': 'volume 3.0' },
        names: ['OpenStack-API-Version', 'Vary'],
        exactValues: ['OpenStack-API-Version'],
      },
    });
    expect(diffs).toEqual([
      expect.stringMatching(/^\$\.volume\.updated_at: format differs/),
      'header OpenStack-API-Version: value differs: expected "volume 3.50", got "volume 3.0"',
      'header Vary: missing (captured "OpenStack-API-Version")',
    ]);
  });
});

describe('headerDiff', () => {
  const names = ['OpenStack-API-Version', 'Vary', 'X-OpenStack-Request-Id', 'Location'];
  const exactValues = ['OpenStack-API-Version', 'Vary'];

  it('accepts matching headers from a plain record, case-insensitively', () => {
    const actual = {
      'openstack-api-version': 'volume 3.50',
      vary: 'OpenStack-API-Version',
      'x-openstack-request-id': 'req-00000000-0000-4000-8000-000000000000',
    };
    expect(headerDiff(loadCapture(5), actual, names, { exactValues, formats: true })).toEqual([]);
  });

  it('accepts fetch Headers', () => {
    const h = new Headers({
      'OpenStack-API-Version': 'volume 3.50',
      Vary: 'OpenStack-API-Version',
      'X-OpenStack-Request-Id': 'req-00000000-0000-4000-8000-000000000000',
    });
    expect(headerDiff(loadCapture(5), h, names, { exactValues })).toEqual([]);
  });

  it('reports missing, unexpected and different headers', () => {
    const actual = {
      'openstack-api-version': 'volume 3.0',
      'x-openstack-request-id': 'not-a-request-id',
      location: 'http://x/',
    };
    expect(headerDiff(loadCapture(5), actual, names, { exactValues, formats: true })).toEqual([
      'header OpenStack-API-Version: value differs: expected "volume 3.50", got "volume 3.0"',
      'header Vary: missing (captured "OpenStack-API-Version")',
      'header X-OpenStack-Request-Id: format differs: expected req-id like ' +
        '"req-162c7cb7-24c4-49f5-b73c-444074c16582", got free text "not-a-request-id"',
      'header Location: unexpected (got "http://x/")',
    ]);
  });

  it('works on Keystone captures (lower-case x-openstack-request-id, array values)', () => {
    const c = loadCapture(67);
    expect(
      headerDiff(
        c,
        { 'X-Openstack-Request-Id': ['req-1'], 'x-subject-token': 't', vary: 'X-Auth-Token' },
        ['x-openstack-request-id', 'X-Subject-Token', 'Vary', 'OpenStack-API-Version'],
        { exactValues: ['vary'] },
      ),
    ).toEqual([]);
  });
});
