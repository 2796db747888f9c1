import type { AttachMode, Topology } from '@sv/shared';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge, ModeBadge, StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { DateTime } from '../../../components/ui/date-time';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { edgeKey, hostLabel, type TopologyIndex } from '../model/topology-model';
import { ClockIcon, WarningIcon } from './icons';

export const PAGE_SIZE = 50;

export interface EdgeRow {
  key: string;
  serverId: string;
  server: string;
  volumeId: string;
  volume: string;
  mode: AttachMode;
  state: string;
  stuck: boolean;
  writers: boolean;
  host: string;
  device: string;
  since: string | null;
}

type SortKey = 'server' | 'volume' | 'mode' | 'state' | 'host' | 'since';
const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'server', label: 'Server' },
  { key: 'volume', label: 'Volume' },
  { key: 'mode', label: 'Mode' },
  { key: 'state', label: 'State' },
  { key: 'host', label: 'Host' },
  { key: 'since', label: 'Since' },
];

export function edgeRows(t: Topology, index: TopologyIndex): EdgeRow[] {
  return t.edges.map((e, i) => ({
    key: `${i}`,
    serverId: e.serverId,
    server: index.servers.get(e.serverId)?.name ?? e.serverId,
    volumeId: e.volumeId,
    volume: index.volumes.get(e.volumeId)?.name || e.volumeId,
    mode: e.mode,
    state: e.state,
    stuck: index.stuck.has(edgeKey(e.serverId, e.volumeId)),
    writers: e.mode === 'rw' && index.multipleWriters.has(e.volumeId),
    host: hostLabel(index, index.hostOf.get(e.serverId) ?? ''),
    device: e.device ?? '',
    since: e.since,
  }));
}

export function filterRows(rows: EdgeRow[], search: string, onlyRisks: boolean): EdgeRow[] {
  const q = search.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!onlyRisks || r.stuck || r.writers) &&
      (!q || [r.server, r.serverId, r.volume, r.volumeId, r.host].some((f) => f.toLowerCase().includes(q))),
  );
}

const linkClass = 'font-medium text-blue-800 underline-offset-2 hover:underline';

/**
 * Every attachment as a table row: the graph's accessible alternative, searchable, sortable and
 * paged (20,000 rows would not be usable in one go).
 */
export function EdgeTable({
  topology,
  index,
  search,
}: {
  topology: Topology;
  index: TopologyIndex;
  search: string;
}) {
  const [onlyRisks, setOnlyRisks] = useState(false);
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'server', dir: 1 });
  // The page belongs to one search/sort; changing either starts again at page 1.
  const [paging, setPaging] = useState({ view: '', page: 0 });
  const deferredSearch = useDeferredValue(search);
  const riskId = useId();

  const all = useMemo(() => edgeRows(topology, index), [topology, index]);
  const rows = useMemo(() => {
    const out = filterRows(all, deferredSearch, onlyRisks);
    const { key, dir } = sort;
    return out.sort(
      (a, b) => dir * ((a[key] ?? '').localeCompare(b[key] ?? '') || a.server.localeCompare(b.server)),
    );
  }, [all, deferredSearch, onlyRisks, sort]);

  const view = `${deferredSearch}\u0000${onlyRisks}\u0000${sort.key}\u0000${sort.dir}`;
  const setPage = (page: number) => setPaging({ view, page });
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = paging.view === view ? Math.min(paging.page, pages - 1) : 0;
  const shown = rows.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);
  const from = rows.length === 0 ? 0 : current * PAGE_SIZE + 1;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-4">
        <label htmlFor={riskId} className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            id={riskId}
            type="checkbox"
            checked={onlyRisks}
            onChange={(e) => setOnlyRisks(e.target.checked)}
            className="h-4 w-4 accent-blue-700"
          />
          Only risky attachments
        </label>
        <p className="text-sm text-slate-700" aria-live="polite">
          {rows.length === 0
            ? 'No attachments match.'
            : `Attachments ${from.toLocaleString()}–${(from + shown.length - 1).toLocaleString()} of ${rows.length.toLocaleString()}`}
        </p>
      </div>
      <Table caption="Every attachment: server, volume, mode, state and host">
        <THead>
          {COLUMNS.map((c) => (
            <Th
              key={c.key}
              aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : undefined}
            >
              <button
                type="button"
                className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700"
                onClick={() =>
                  setSort((s) => ({ key: c.key, dir: s.key === c.key ? (s.dir === 1 ? -1 : 1) : 1 }))
                }
              >
                {c.label}
                <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 1 ? '▲' : '▼') : ''}</span>
              </button>
            </Th>
          ))}
          <Th>Device</Th>
        </THead>
        <TBody>
          {shown.map((r) => (
            <Tr key={r.key}>
              <Td>
                <Link to={`/servers/${encodeURIComponent(r.serverId)}`} className={linkClass}>
                  {r.server}
                </Link>
              </Td>
              <Td>
                <Link to={`/volumes/${encodeURIComponent(r.volumeId)}`} className={linkClass}>
                  {r.volume}
                </Link>
                {r.writers && (
                  <Badge
                    tone="red"
                    className="ml-1.5"
                    title="This volume is attached read-write to several servers."
                  >
                    <WarningIcon className="h-3 w-3" />
                    several writers
                  </Badge>
                )}
              </Td>
              <Td>
                <ModeBadge mode={r.mode} long />
              </Td>
              <Td>
                <span className="inline-flex flex-wrap items-center gap-1">
                  <StatusBadge status={r.state} />
                  {r.stuck && (
                    <Badge tone="red">
                      <ClockIcon className="h-3 w-3" />
                      stuck
                    </Badge>
                  )}
                </span>
              </Td>
              <Td>{r.host}</Td>
              <Td>
                <DateTime value={r.since} />
              </Td>
              <Td className="font-mono text-xs">{r.device || <span className="text-slate-600">—</span>}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      {pages > 1 && (
        <nav aria-label="Attachment pages" className="flex items-center gap-2">
          <Button size="sm" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </Button>
          <span className="text-sm text-slate-700">
            Page {current + 1} of {pages.toLocaleString()}
          </span>
          <Button size="sm" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
