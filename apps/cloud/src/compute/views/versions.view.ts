/**
 * Nova's version documents (`nova/api/openstack/compute/versions.py` and its view). `base` is the
 * compute endpoint without a version, e.g. `http://host/compute`.
 */
const DESCRIBED_BY = { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' };

interface VersionInfo {
  id: 'v2.0' | 'v2.1';
  status: string;
  version: string;
  min_version: string;
  updated: string;
  mediaType: string;
}

function versions(max: string, min: string): VersionInfo[] {
  return [
    {
      id: 'v2.0',
      status: 'DEPRECATED',
      version: '',
      min_version: '',
      updated: '2011-01-21T11:33:21Z',
      mediaType: 'application/vnd.openstack.compute+json;version=2',
    },
    {
      id: 'v2.1',
      status: 'CURRENT',
      version: max,
      min_version: min,
      updated: '2013-07-23T11:33:21Z',
      mediaType: 'application/vnd.openstack.compute+json;version=2.1',
    },
  ];
}

/** `p.strip('/')` without a regex: `/\/+$/` retried at every slash is quadratic on a long path. */
function trimSlashes(p: string): string {
  let start = 0;
  let end = p.length;
  while (start < end && p[start] === '/') start++;
  while (end > start && p[end - 1] === '/') end--;
  return p.slice(start, end);
}

/** Nova's `url_join`: parts stripped of slashes, joined; an empty last part leaves a trailing slash. */
function urlJoin(...parts: string[]): string {
  const clean = parts.filter((p) => p !== '').map(trimSlashes);
  if (parts.at(-1) === '') clean.push('');
  return clean.join('/');
}

const versionDir = (id: VersionInfo['id']) => (id === 'v2.1' ? 'v2.1' : 'v2');

/** `GET /`: both versions, each with only a self link. */
export function versionListView(base: string, max: string, min: string) {
  return {
    versions: versions(max, min).map((v) => ({
      id: v.id,
      status: v.status,
      version: v.version,
      min_version: v.min_version,
      updated: v.updated,
      links: [{ rel: 'self', href: urlJoin(base, versionDir(v.id), '') }],
    })),
  };
}

/** 300 for any other path of the versions app: a choice per version, pointing at the same path. */
export function versionChoicesView(base: string, path: string, max: string, min: string) {
  return {
    choices: versions(max, min).map((v) => ({
      id: v.id,
      status: v.status,
      links: [{ rel: 'self', href: urlJoin(base, versionDir(v.id), path) }],
      'media-types': [{ base: 'application/json', type: v.mediaType }],
    })),
  };
}

/** `GET /v2.1` and `/v2.1/` (captures 01, 88). */
export function versionShowView(base: string, max: string, min: string) {
  const v = versions(max, min)[1]!;
  return {
    version: {
      id: v.id,
      status: v.status,
      version: v.version,
      min_version: v.min_version,
      updated: v.updated,
      links: [{ rel: 'self', href: `${base}/v2.1/` }, DESCRIBED_BY],
      'media-types': [{ base: 'application/json', type: v.mediaType }],
    },
  };
}

/**
 * `GET /v2/`: the legacy v2 endpoint (served by the v2.1 code in compatible mode) answers its
 * own version document, v2.0 SUPPORTED with no microversions (Tempest's test_get_version_details).
 */
export function legacyVersionShowView(base: string) {
  return {
    version: {
      id: 'v2.0',
      status: 'SUPPORTED',
      version: '',
      min_version: '',
      updated: '2011-01-21T11:33:21Z',
      links: [{ rel: 'self', href: `${base}/v2/` }, DESCRIBED_BY],
      'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.compute+json;version=2' }],
    },
  };
}
