import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound, policyForbidden } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import { servicesStore, type VolumeServiceRow } from '../store/services.store.js';
import type { Caller } from './caller.js';

const invalidInput = (reason: string) => badRequest(`Invalid input received: ${reason}`);

/** The `host` part of `host@backend#pool` (volume_utils.extract_host, level 'backend' is host@backend). */
const hostOf = (host: string) => host.split('#')[0] as string;

/**
 * os-services (contrib/services.py) and os-availability-zone: the cinder services of the
 * emulated deployment, listed and enabled/disabled/frozen by admins; the zones they serve.
 */
export function createServicesService(deps: { store: Store }) {
  const { store } = deps;
  const db = store.db;

  async function list(
    caller: Caller,
    filters: { host?: string; binary?: string },
  ): Promise<VolumeServiceRow[]> {
    if (!caller.isAdmin) throw policyForbidden('volume_extension:services:index');
    // _filter_host: the host itself, or any backend or pool on it (`host@backend`, `host#pool`).
    const rows = await servicesStore.list(db, filters.binary !== undefined ? { binary: filters.binary } : {});
    const host = filters.host;
    return host === undefined
      ? rows
      : rows.filter((s) => s.host === host || s.host.startsWith(`${host}@`) || s.host.startsWith(`${host}#`));
  }

  /** enable / disable / disable-log-reason: the service by host and binary, or ServiceNotFound. */
  async function setDisabled(
    host: string | null | undefined,
    binary: string,
    disabled: boolean,
    reason?: string,
  ): Promise<void> {
    if (!host) throw invalidInput('Host field is missing.');
    await store.transaction(async (tx) => {
      const svc = await servicesStore.byArgs(tx, host, binary);
      if (!svc) throw notFound(`Service ${binary} could not be found on host ${host}.`);
      await servicesStore.update(tx, host, binary, {
        disabled: disabled ? 1 : 0,
        ...(reason !== undefined ? { disabled_reason: reason } : {}),
        updated_at: nowIso(),
      });
    });
  }

  /** freeze / thaw: every volume service on the host, or "No service found". */
  async function setFrozen(host: string | null | undefined, frozen: boolean): Promise<void> {
    if (!host) throw invalidInput('Host field is missing.');
    await store.transaction(async (tx) => {
      const services = (await servicesStore.list(tx, { binary: 'cinder-volume' })).filter(
        (s) => s.host === host || hostOf(s.host) === host || s.host.split('@')[0] === host,
      );
      // ServiceNotFound's text, re-raised as InvalidInput with no prefix (capture 635).
      if (services.length === 0) throw badRequest(`No service found with host=${host}`);
      for (const s of services) {
        await servicesStore.update(tx, s.host, s.binary, { frozen: frozen ? 1 : 0, updated_at: nowIso() });
      }
    });
  }

  /** list_availability_zones: each zone of a volume service, available unless all its services are disabled. */
  async function availabilityZones(): Promise<{ name: string; available: boolean }[]> {
    const disabled = new Map<string, boolean>();
    for (const s of await servicesStore.list(db, { binary: 'cinder-volume' })) {
      disabled.set(s.availability_zone, (disabled.get(s.availability_zone) ?? true) && s.disabled === 1);
    }
    return [...disabled].map(([name, d]) => ({ name, available: !d }));
  }

  return { list, setDisabled, setFrozen, availabilityZones };
}

export type ServicesService = ReturnType<typeof createServicesService>;
