import type { SessionData } from '../platform/session-store.js';
import { OpenStackFault } from './fault.js';
import { callOpenStack, type OpenStackRequest } from './http.js';
import { cappedVersion, versionAtLeast } from './microversions.js';

/** A `.` or `..` path segment (encodeURIComponent keeps dots; URL parsing resolves `%2e` too). */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|\?|$)/i;

type Call = <T = unknown>(
  method: string,
  path: string,
  opts?: Omit<OpenStackRequest, 'method' | 'token'>,
) => Promise<{
  status: number;
  headers: Headers;
  body: T;
}>;

export interface CloudClient {
  session: SessionData;
  /** Nova under the session's compute endpoint; `microversion` is a bare number like '2.89'. */
  nova: Call;
  /** Cinder under the session's project-scoped volume endpoint. */
  cinder: Call;
  glance: Call;
  /** Neutron under the session's network endpoint (paths start with /v2.0); only when `hasNetwork`. */
  neutron: Call;
  /** Placement (`microversion` e.g. '1.10'); only when the catalog has it. */
  placement: Call;
  /** Whether the catalog has a network service. */
  hasNetwork: boolean;
  /** The highest of `wanted` the cloud supports. */
  computeVersion(wanted: string): string;
  volumeVersion(wanted: string): string;
  /** Whether the cloud's newest compute (volume) microversion is `version` or later. */
  computeHas(version: string): boolean;
  volumeHas(version: string): boolean;
}

/** Every call the BFF makes to the cloud on a user's behalf goes through here. */
export function cloudFor(session: SessionData): CloudClient {
  const make =
    (service: string, base: string | null, versionPrefix: string | null): Call =>
    async (method, path, opts = {}) => {
      if (!base) throw new Error(`no ${service} endpoint in the catalog`);
      // An id of `..` would be resolved away and name another resource of the cloud: it names none.
      if (DOT_SEGMENT.test(path)) {
        if (opts.allow?.includes(404))
          return { status: 404, headers: new Headers(), body: undefined as never };
        throw new OpenStackFault(service, 404, 'The resource could not be found.', null, null);
      }
      const mv = opts.microversion && versionPrefix ? `${versionPrefix} ${opts.microversion}` : undefined;
      return callOpenStack(service, base + path, {
        ...opts,
        method,
        token: session.token,
        ...(mv ? { microversion: mv } : {}),
      });
    };
  return {
    session,
    nova: make('compute', session.endpoints.compute, 'compute'),
    cinder: make('block-storage', session.endpoints.volume, 'volume'),
    glance: make('image', session.endpoints.image, null),
    // Some catalogs name Neutron's endpoint with its version; the paths carry it.
    neutron: make('network', session.endpoints.network?.replace(/\/v2\.0\/?$/, '') ?? null, null),
    hasNetwork: Boolean(session.endpoints.network),
    placement: make('placement', session.endpoints.placement ?? null, 'placement'),
    computeVersion: (wanted) => cappedVersion(wanted, session.capabilities.compute.maxVersion),
    volumeVersion: (wanted) => cappedVersion(wanted, session.capabilities.volume.maxVersion),
    computeHas: (version) => versionAtLeast(session.capabilities.compute.maxVersion, version),
    volumeHas: (version) => versionAtLeast(session.capabilities.volume.maxVersion, version),
  };
}
