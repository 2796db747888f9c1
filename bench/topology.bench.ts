/**
 * GET /compute/v2.1/os-emulator-topology at 500 / 2,000 / 5,000 servers (4 volume attachments
 * each, 1,000 shared volumes), over HTTP against the real app. SQLite (a file in a temp dir)
 * always; PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set.
 *
 *   npx tsx bench/topology.bench.ts            # or: npm run bench:topology
 *   BENCH_RUNS=30 BENCH_SIZES=500,5000 npx tsx bench/topology.bench.ts
 *
 * Rows go straight into the tables with multi-row INSERTs: the point is to time the read,
 * not the servers API.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Insertable, sql } from 'kysely';
import { type BootedCloud, bootCloud } from '../apps/cloud/src/boot.js';
import { testConfig } from '../apps/cloud/src/config.js';
import type { Schema } from '../apps/cloud/src/platform/db/schema.js';
import { dropPgSchema } from '../apps/cloud/src/platform/db/store.js';
import { createLogger } from '../apps/cloud/src/platform/logger.js';

const SIZES = (process.env.BENCH_SIZES ?? '500,2000,5000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUPS = Number(process.env.BENCH_WARMUPS ?? 2);
const VOLUMES = 1000;
const ATTACHMENTS_PER_SERVER = 4;
/** Extra compute hosts on top of the five seeded ones, so servers spread as in a real cloud. */
const EXTRA_HOSTS = 45;
const PATH = '/compute/v2.1/os-emulator-topology';

/** A small deterministic PRNG (mulberry32): the same data on every run and engine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic uuid-shaped ids, so engines and runs see the same rows. */
const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Multi-row INSERTs, chunked under both engines' bind-parameter limits. */
async function insertChunked<R extends object>(rows: R[], insert: (chunk: R[]) => Promise<unknown>) {
  if (rows.length === 0) return;
  const perChunk = Math.max(1, Math.floor(30_000 / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += perChunk) await insert(rows.slice(i, i + perChunk));
}

interface Seeded {
  hosts: string[];
  servers: number;
  volumeTypeId: string;
  projects: string[];
}

async function seedBase(cloud: BootedCloud): Promise<Seeded> {
  const db = cloud.deps.store.db;
  const projects = (
    await db.selectFrom('projects').select('id').where('name', 'in', ['admin', 'demo']).execute()
  ).map((p) => p.id);
  const volumeTypeId = (
    await db
      .selectFrom('volume_types')
      .select('id')
      .where('name', '=', 'multiattach')
      .executeTakeFirstOrThrow()
  ).id;
  const now = new Date().toISOString();
  const maxService = await db
    .selectFrom('compute_services')
    .select(db.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  const maxNode = await db
    .selectFrom('compute_nodes')
    .select(db.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  const firstService = Number(maxService.id) + 1;
  const firstNode = Number(maxNode.id) + 1;
  const extra = Array.from({ length: EXTRA_HOSTS }, (_, i) => `bench-${String(i + 1).padStart(3, '0')}`);
  const services: Insertable<Schema['compute_services']>[] = extra.map((host, i) => ({
    id: firstService + i,
    uuid: uuid(1, i),
    binary: 'nova-compute',
    host,
    zone: i % 2 === 0 ? 'nova' : 'az2',
    status: 'enabled',
    disabled_reason: null,
    forced_down: 0,
    version: 70,
    updated_at: now,
  }));
  const nodes: Insertable<Schema['compute_nodes']>[] = extra.map((host, i) => ({
    id: firstNode + i,
    uuid: uuid(2, i),
    service_id: firstService + i,
    host,
    hypervisor_hostname: host,
    hypervisor_type: 'QEMU',
    hypervisor_version: 8002000,
    host_ip: `10.1.${i >> 8}.${i & 255}`,
    vcpus: 64,
    memory_mb: 262_144,
    local_gb: 2_000,
    supports_multiattach: 1,
  }));
  const volumes: Insertable<Schema['volumes']>[] = Array.from({ length: VOLUMES }, (_, v) => ({
    id: uuid(3, v),
    project_id: projects[v % projects.length]!,
    user_id: 'bench',
    name: `shared-${v}`,
    description: null,
    size: 10,
    status: 'in-use',
    attach_status: 'attached',
    volume_type_id: volumeTypeId,
    availability_zone: 'nova',
    bootable: 0,
    multiattach: 1,
    host: 'controller@lvm#lvm',
    metadata: '{}',
    readonly_flag: null,
    migration_status: null,
    snapshot_id: null,
    source_volid: null,
    encrypted: 0,
    created_at: now,
    updated_at: now,
    launched_at: now,
  }));
  {
    // Plain autocommitted multi-row INSERTs: store.transaction is not needed for a bulk load.
    const tx = cloud.deps.store.db;
    await insertChunked(services, (c) => tx.insertInto('compute_services').values(c).execute());
    await insertChunked(nodes, (c) => tx.insertInto('compute_nodes').values(c).execute());
    await insertChunked(volumes, (c) => tx.insertInto('volumes').values(c).execute());
  }
  const hosts = (
    await db.selectFrom('compute_services').select('host').where('binary', '=', 'nova-compute').execute()
  ).map((h) => h.host);
  return { hosts, servers: 0, volumeTypeId, projects };
}

/** Servers [from, to) with four attachments each: mostly attached ro, ~10% rw, ~1% stuck. */
async function addServers(cloud: BootedCloud, seeded: Seeded, to: number): Promise<void> {
  const from = seeded.servers;
  const rand = prng(from + 1);
  const now = Date.now();
  const iso = (agoMs: number) => new Date(now - agoMs).toISOString();
  const servers: Insertable<Schema['servers']>[] = [];
  const bdms: Insertable<Schema['block_device_mappings']>[] = [];
  const attachments: Insertable<Schema['volume_attachments']>[] = [];
  for (let i = from; i < to; i++) {
    const id = uuid(4, i);
    const host = seeded.hosts[i % seeded.hosts.length]!;
    const created = iso(86_400_000 + i * 1000);
    servers.push({
      id,
      project_id: seeded.projects[i % seeded.projects.length]!,
      user_id: 'bench',
      name: `vm-${i}`,
      hostname: `vm-${i}`,
      description: null,
      vm_state: 'active',
      task_state: null,
      power_state: 1,
      host,
      node: host,
      availability_zone: 'nova',
      requested_availability_zone: null,
      flavor_id: '1',
      flavor: '{}',
      old_flavor: null,
      image_id: null,
      reservation_id: 'r-bench000',
      launch_index: 0,
      key_name: null,
      metadata: '{}',
      tags: '[]',
      security_groups: '[]',
      config_drive: '',
      locked: 0,
      locked_reason: null,
      fault: null,
      created_at: created,
      updated_at: created,
      launched_at: created,
      terminated_at: null,
      deleted: 0,
    });
    for (let k = 0; k < ATTACHMENTS_PER_SERVER; k++) {
      const volumeId = uuid(3, (i * ATTACHMENTS_PER_SERVER + k) % VOLUMES);
      const attachmentId = uuid(5, i * ATTACHMENTS_PER_SERVER + k);
      const mode = rand() < 0.1 ? 'rw' : 'ro';
      const r = rand();
      const status = r < 0.01 ? 'attaching' : r < 0.015 ? 'detaching' : 'attached';
      const changed = status === 'attached' ? created : iso(3_600_000);
      const device = `/dev/vd${String.fromCharCode(98 + k)}`;
      attachments.push({
        id: attachmentId,
        volume_id: volumeId,
        instance_uuid: id,
        attached_host: host,
        mountpoint: device,
        attach_status: status,
        attach_mode: mode,
        connector: null,
        connection_info: null,
        attached_at: status === 'attached' ? created : null,
        detached_at: null,
        created_at: created,
        updated_at: changed,
      });
      bdms.push({
        uuid: uuid(6, i * ATTACHMENTS_PER_SERVER + k),
        server_id: id,
        source_type: 'volume',
        destination_type: 'volume',
        volume_id: volumeId,
        image_id: null,
        attachment_id: attachmentId,
        boot_index: k === 0 ? 0 : null,
        device_name: device,
        device_type: 'disk',
        disk_bus: 'virtio',
        guest_format: null,
        volume_size: null,
        volume_type: null,
        delete_on_termination: 0,
        tag: null,
        attach_mode: mode,
        connection_info: null,
        created_at: created,
        updated_at: changed,
      });
    }
  }
  {
    // Plain autocommitted multi-row INSERTs: store.transaction is not needed for a bulk load.
    const tx = cloud.deps.store.db;
    await insertChunked(servers, (c) => tx.insertInto('servers').values(c).execute());
    await insertChunked(attachments, (c) => tx.insertInto('volume_attachments').values(c).execute());
    await insertChunked(bdms, (c) => tx.insertInto('block_device_mappings').values(c).execute());
  }
  seeded.servers = to;
  // Fresh statistics after a bulk load, as an operator's ANALYZE / autovacuum would give.
  await sql`analyze`.execute(cloud.deps.store.db);
}

async function token(url: string, user: string, password: string): Promise<string> {
  const res = await fetch(`${url}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: user, domain: { name: 'Default' }, password } },
        },
        scope: { project: { name: user, domain: { name: 'Default' } } },
      },
    }),
  });
  if (res.status !== 201) throw new Error(`login ${user}: ${res.status}`);
  return res.headers.get('x-subject-token')!;
}

interface Timing {
  bytes: number;
  attachments: number;
  servers: number;
  median: number;
  p90: number;
  /** This process's CPU per request (server, SQLite, client; not PostgreSQL's): steadier than wall time on a busy box. */
  cpuMedian: number;
}

/** One GET over a keep-alive connection; the body stays bytes (a client's decode is not the server's time). */
function get(url: string, tokenValue: string, agent: Agent): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'X-Auth-Token': tokenValue }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function time(url: string, tokenValue: string, query = ''): Promise<Timing> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const one = async () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await get(url + PATH + query, tokenValue, agent);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (res.status !== 200)
      throw new Error(`GET ${query}: ${res.status} ${res.body.toString().slice(0, 200)}`);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, body: res.body };
  };
  try {
    for (let i = 0; i < WARMUPS; i++) await one();
    const samples: number[] = [];
    const cpuSamples: number[] = [];
    let last: Buffer = Buffer.alloc(0);
    for (let i = 0; i < RUNS; i++) {
      const r = await one();
      samples.push(r.ms);
      cpuSamples.push(r.cpuMs);
      last = r.body;
    }
    const quantile = (xs: number[], q: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
    const summary = (
      JSON.parse(last.toString('utf8')) as { topology: { summary: { attachments: number; servers: number } } }
    ).topology.summary;
    return {
      bytes: last.length,
      attachments: summary.attachments,
      servers: summary.servers,
      median: quantile(samples, 0.5),
      p90: quantile(samples, 0.9),
      cpuMedian: quantile(cpuSamples, 0.5),
    };
  } finally {
    agent.destroy();
  }
}

const row = (cells: (string | number)[]) =>
  `| ${cells.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : c)).join(' | ')} |`;

async function benchEngine(label: string, databaseUrl: string, pgSchema?: string): Promise<void> {
  const logger = createLogger('silent');
  const cloud = await bootCloud(
    testConfig({ databaseUrl, logLevel: 'silent' }),
    logger,
    pgSchema ? { pgSchema } : {},
  );
  const server: Server = await new Promise((resolve) => {
    const s = cloud.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const seeded = await seedBase(cloud);
    const admin = await token(url, 'admin', 'admin');
    const demo = await token(url, 'demo', 'demo');
    console.log(`\n### ${label}\n`);
    console.log(
      row([
        'view',
        'servers',
        'attachments',
        'response bytes',
        'median ms',
        'p90 ms',
        'CPU ms (median)',
        'median µs / attachment',
      ]),
    );
    console.log(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
    const line = (view: string, t: Timing) =>
      console.log(
        row([
          view,
          t.servers,
          t.attachments,
          t.bytes,
          t.median.toFixed(1),
          t.p90.toFixed(1),
          t.cpuMedian.toFixed(1),
          t.attachments ? ((t.median * 1000) / t.attachments).toFixed(1) : '-',
        ]),
      );
    for (const size of SIZES) {
      await addServers(cloud, seeded, size);
      line('admin, whole cloud', await time(url, admin));
    }
    // Scoped and filtered views at the largest size.
    line('member (own project)', await time(url, demo));
    line('admin ?host=compute-1', await time(url, admin, '?host=compute-1'));
    line(`admin ?volume_id=<one>`, await time(url, admin, `?volume_id=${uuid(3, 7)}`));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await cloud.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `topology bench: node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ` +
      `${RUNS} runs after ${WARMUPS} warm-ups, ${VOLUMES} volumes, ${ATTACHMENTS_PER_SERVER} attachments per server, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'topology-bench-'));
  try {
    await benchEngine('SQLite (file, WAL)', `file:${join(dir, 'bench.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (pgUrl && /^postgres(ql)?:\/\//.test(pgUrl)) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    try {
      await benchEngine('PostgreSQL', pgUrl, schema);
    } finally {
      await dropPgSchema(pgUrl, schema);
    }
  }
}

await main();
console.log(
  `\nload average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
