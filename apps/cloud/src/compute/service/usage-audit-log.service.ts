import type { Kysely } from 'kysely';
import type { Schema } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/http/errors.js';
import { hostsStore } from '../store/hosts.store.js';

type Db = Kysely<Schema>;

/**
 * Nova's os-instance_usage_audit_log (`instance_usage_audit_log.py`): the instance usage audit
 * of the last completed month before a time, per compute host. The bundled cloud runs no audit
 * task (Nova's `instance_usage_audit` is off by default), so every host is "not run".
 */

export interface AuditLog {
  periodBeginning: string;
  periodEnding: string;
  numHosts: number;
  numHostsDone: number;
  numHostsRunning: number;
  numHostsNotRun: number;
  hostsNotRun: string[];
  totalInstances: number;
  totalErrors: number;
  overallStatus: string;
}

/** `utils.last_completed_audit_period` with the default unit, a month starting on the 1st. */
export function lastCompletedMonth(before: Date): { begin: Date; end: Date } {
  let end = new Date(Date.UTC(before.getUTCFullYear(), before.getUTCMonth(), 1));
  if (end.getTime() >= before.getTime())
    end = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, 1));
  const begin = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, 1));
  return { begin, end };
}

/** Python's `str(datetime)` of a whole second: `2026-10-01 00:00:00`. */
const pyDatetime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** The `before` of `GET /os-instance_usage_audit_log/{before}`: `%Y-%m-%d %H:%M:%S[.%f]`, UTC. */
export function parseAuditBefore(id: string): Date {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?$/.exec(id);
  const invalid = () => badRequest(`Invalid timestamp for date ${id}`);
  // strptime takes a fraction only with `.%f`, and `.%f` only with a fraction.
  if (!m || id.includes('.') !== (m[7] !== undefined)) throw invalid();
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, Number((m[7] ?? '0').padEnd(6, '0').slice(0, 3))));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    throw invalid();
  return date;
}

export async function auditLog(db: Db, before: Date): Promise<AuditLog> {
  const { begin, end } = lastCompletedMonth(before);
  // Disabled compute services too: they may still hold servers.
  const hosts = [
    ...new Set((await hostsStore.listServices(db, { binary: 'nova-compute' })).map((s) => s.host)),
  ];
  const done = 0;
  return {
    periodBeginning: pyDatetime(begin),
    periodEnding: pyDatetime(end),
    numHosts: hosts.length,
    numHostsDone: done,
    numHostsRunning: 0,
    numHostsNotRun: hosts.length,
    hostsNotRun: hosts.sort(),
    totalInstances: 0,
    totalErrors: 0,
    overallStatus: `${done === hosts.length ? 'ALL' : `${done} of ${hosts.length}`} hosts done. 0 errors.`,
  };
}
