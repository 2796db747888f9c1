import { http, type HttpResult, type Session, type TestCloud } from '../../helpers/cloud.js';

/**
 * Helpers for the servers API tests: requests as a session at a microversion, boot bodies, a
 * stepper that runs the emulated hosts one step at a time (to see every state of a sequence,
 * as capture 199 records them), and host switches for the scheduling tests.
 */

export interface NovaOptions {
  version?: string;
  body?: unknown;
  headers?: Record<string, string>;
  rawBody?: string;
}

export function novaClient(tc: TestCloud, defaultSession: () => Session) {
  return (
    method: string,
    path: string,
    opts: NovaOptions & { session?: Session } = {},
  ): Promise<HttpResult> => {
    const s = opts.session ?? defaultSession();
    return http(tc, method, `/compute/v2.1${path}`, {
      token: s.token,
      version: `compute ${opts.version ?? '2.60'}`,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(opts.rawBody !== undefined ? { rawBody: opts.rawBody } : {}),
      ...(opts.headers ? { headers: opts.headers } : {}),
    });
  };
}

/** A boot-from-volume request as captures 08 and 116 send it. */
export function bfvBody(
  volumeId: string,
  server: Record<string, unknown> = {},
  bdm: Record<string, unknown> = {},
) {
  return {
    server: {
      name: 'srv',
      flavorRef: '1',
      networks: 'none',
      block_device_mapping_v2: [
        {
          boot_index: 0,
          uuid: volumeId,
          source_type: 'volume',
          destination_type: 'volume',
          delete_on_termination: false,
          ...bdm,
        },
      ],
      ...server,
    },
  };
}

/** A fault body in Nova's format. */
export function fault(status: number, message: string) {
  const names: Record<number, string> = {
    400: 'badRequest',
    403: 'forbidden',
    404: 'itemNotFound',
    409: 'conflictingRequest',
    415: 'badMediaType',
  };
  return { [names[status] ?? 'computeFault']: { code: status, message } };
}

/**
 * Holds every background step instead of running it; `step()` runs what is held now (which may
 * hold further steps), `drain()` runs everything and goes back to normal scheduling.
 */
export function stepper(tc: TestCloud) {
  const tasks = tc.cloud.deps.tasks;
  const original = tasks.schedule.bind(tasks);
  let held: (() => Promise<void>)[] = [];
  tasks.schedule = (_name: string, work: () => Promise<void>) => {
    held.push(work);
  };
  return {
    get pending() {
      return held.length;
    },
    async step(): Promise<void> {
      const now = held;
      held = [];
      for (const w of now) await w();
    },
    /** A crash: the held work is lost and scheduling goes back to normal. */
    abandon(): void {
      tasks.schedule = original;
      held = [];
    },
    async drain(): Promise<void> {
      tasks.schedule = original;
      const now = held;
      held = [];
      for (const w of now) await w();
      await tc.settle();
    },
  };
}

/** Enables only the given compute hosts (the others disabled), as an operator would. */
export async function onlyHosts(tc: TestCloud, hosts: string[]): Promise<void> {
  const db = tc.cloud.deps.store.db;
  await db
    .updateTable('compute_services')
    .set({ status: 'disabled' })
    .where('binary', '=', 'nova-compute')
    .execute();
  if (hosts.length) {
    await db
      .updateTable('compute_services')
      .set({ status: 'enabled' })
      .where('binary', '=', 'nova-compute')
      .where('host', 'in', hosts)
      .execute();
  }
}

export async function allHostsEnabled(tc: TestCloud): Promise<void> {
  await tc.cloud.deps.store.db
    .updateTable('compute_services')
    .set({ status: 'enabled', forced_down: 0 })
    .where('binary', '=', 'nova-compute')
    .execute();
}

/** The server row as stored (for states the API does not show to members). */
export function serverRow(tc: TestCloud, id: string) {
  return tc.cloud.deps.store.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A flavor of our own (admin flavor-manage would do the same). */
export async function addFlavor(
  tc: TestCloud,
  f: { id: string; name: string; vcpus: number; ram: number; disk: number },
): Promise<void> {
  const db = tc.cloud.deps.store.db;
  const max = await db
    .selectFrom('flavors')
    .select((eb) => eb.fn.max('internal_id').as('m'))
    .executeTakeFirst();
  await db
    .insertInto('flavors')
    .values({
      ...f,
      internal_id: Number(max?.m ?? 0) + 1,
      ephemeral: 0,
      swap: 0,
      rxtx_factor: 1,
      is_public: 1,
      disabled: 0,
      description: null,
      extra_specs: '{}',
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
