import type { Capabilities } from '@sv/shared';
import { callOpenStack } from './http.js';
import { COMPUTE, versionAtLeast } from './microversions.js';

interface VersionDoc {
  version?: { version?: string; min_version?: string };
  versions?: { id: string; status: string; version?: string; min_version?: string }[];
}

/** Compute's range from its version document (`GET <compute endpoint>`, no token needed). */
export async function computeRange(computeUrl: string, token: string): Promise<{ min: string; max: string }> {
  const res = await callOpenStack<VersionDoc>('compute', `${computeUrl}/`, { token });
  const v = res.body.version;
  return { min: v?.min_version || '2.1', max: v?.version || '2.1' };
}

/** Cinder's range: the v3 document, found by cutting the project id off the endpoint. */
export async function volumeRange(volumeUrl: string, token: string): Promise<{ min: string; max: string }> {
  const v3 = volumeUrl.replace(/\/v3(\/.*)?$/, '/v3/');
  const res = await callOpenStack<VersionDoc>('block-storage', v3, { token, allow: [300] });
  const doc = res.body.versions?.find((v) => v.id.startsWith('v3'));
  return { min: doc?.min_version || '3.0', max: doc?.version || '3.0' };
}

/** The topology extension is ours; a real Nova answers 404 there. */
export async function hasTopologyExtension(computeUrl: string, token: string): Promise<boolean> {
  const res = await callOpenStack('compute', `${computeUrl}/os-emulator-topology?server_id=none`, {
    token,
    allow: [400, 403, 404],
  });
  return res.status === 200;
}

export interface CloudDiscovery {
  compute: { min: string; max: string };
  volume: { min: string; max: string };
  topologyExtension: boolean;
}

/** The three discovery calls at once: one round trip. */
export async function discover(
  computeUrl: string,
  volumeUrl: string,
  token: string,
): Promise<CloudDiscovery> {
  const [compute, volume, topologyExtension] = await Promise.all([
    computeRange(computeUrl, token),
    volumeRange(volumeUrl, token),
    hasTopologyExtension(computeUrl, token),
  ]);
  return { compute, volume, topologyExtension };
}

/**
 * Discovery answers per cloud, for `ttlMs`: a cloud's version ranges and extensions change only
 * with an upgrade, so the sign-ins after the first skip those three calls. Keyed by the compute
 * endpoint and the volume service's root (its endpoint without the project id), so every project
 * of one cloud shares an entry, and by audience (the extension probe answers per policy). A sign-in that fails does not fill it; concurrent sign-ins share
 * one discovery in flight.
 */
export function discoveryCache(ttlMs: number, now: () => number = Date.now) {
  const entries = new Map<string, { at: number; answer: Promise<CloudDiscovery> }>();
  return {
    /** `audience` separates answers a policy may give differently (an admin's from a member's). */
    get(computeUrl: string, volumeUrl: string, token: string, audience: string): Promise<CloudDiscovery> {
      if (ttlMs <= 0) return discover(computeUrl, volumeUrl, token);
      const key = `${audience} ${computeUrl} ${volumeUrl.replace(/\/v3(\/.*)?$/, '/v3')}`;
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.answer;
      const answer = discover(computeUrl, volumeUrl, token);
      const entry = { at: now(), answer };
      entries.set(key, entry);
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return answer;
    },
    clear(): void {
      entries.clear();
    },
  };
}

export function capabilitiesFor(
  compute: { min: string; max: string },
  volume: { min: string; max: string },
  topologyExtension: boolean,
  forceSerial: boolean,
): Capabilities {
  const enhancements = versionAtLeast(compute.max, COMPUTE.enhancements);
  const multiattach = versionAtLeast(compute.max, COMPUTE.multiattach);
  const serial = forceSerial || !enhancements;
  return {
    compute: { minVersion: compute.min, maxVersion: compute.max },
    volume: { minVersion: volume.min, maxVersion: volume.max },
    multiattachEnhancements: enhancements,
    multiattach,
    readOnlyAttach: enhancements
      ? { available: true, reason: null }
      : {
          available: false,
          reason: `This cloud's compute API stops at ${compute.max}; read-only attachments need ${COMPUTE.enhancements}.`,
        },
    launchStrategy: serial ? 'serial' : 'multi-create',
    launchStrategyReason: forceSerial
      ? 'Servers are created one by one and attached in turn (set by the dashboard configuration).'
      : enhancements
        ? `One request creates every server on the shared volume (compute ${COMPUTE.enhancements}).`
        : `This cloud's compute API stops at ${compute.max}, so servers are created one by one and the shared volume attached to each in turn.`,
    topologyExtension,
  };
}
