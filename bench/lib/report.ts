/**
 * What `npm run bench` prints and writes: each section's tables as plain text on stdout, and the
 * whole of docs/benchmarks.md (header, summary of every verdict, then each section) as markdown.
 */
import type { BenchSection, BenchTable, BenchVerdict } from './types.js';

/** How one module of the suite ended. */
export interface ModuleOutcome {
  /** The name `--only` takes, e.g. `bff`. */
  name: string;
  /** e.g. `BFF overhead`. */
  title: string;
  /** e.g. `bench/bff-overhead.bench.ts`. */
  file: string;
  status: 'ok' | 'crashed' | 'missing' | 'skipped';
  sections: BenchSection[];
  /** A module left out with `--only`: what the file's previous run said about it, kept as it was. */
  kept?: KeptModule;
  /** The error (with its stack) of a crashed module. */
  error?: string;
  seconds?: number;
}

/**
 * One module as an earlier docs/benchmarks.md has it: its rows of the summary, its time, and its
 * sections as written, with the run they come from. A run with `--only` keeps the other modules so.
 */
export interface KeptModule {
  /** `2026-11-21 18:27 UTC, \`d275c28\``: the run that measured it. */
  from: string;
  /** Its rows of the summary table, cells as written (pipes still escaped). */
  summaryRows: string[][];
  took: string;
  /** Its sections' markdown, as written. */
  sections: string;
}

/** The run as a whole: where, when and how it was measured. Each value is already formatted. */
export interface RunHeader {
  quick: boolean;
  rows: [string, string][];
}

const MET = '✓';
const MISSED = '✗';

// --- Plain text (stdout) ---------------------------------------------------------------------------

/** Markdown emphasis and code marks only get in the way in a terminal. */
const plain = (cell: string) => cell.replace(/\*\*/g, '').replace(/`/g, '');

export function textTable(columns: string[], rows: string[][]): string {
  const cells = [columns, ...rows].map((r) => r.map(plain));
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? '')].length)));
  const numeric = numericColumns(columns, rows);
  const line = (r: string[]) =>
    r
      .map((c, i) => {
        const pad = ' '.repeat(Math.max(0, widths[i]! - [...c].length));
        return numeric[i] ? pad + c : c + pad;
      })
      .join(' | ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

const verdictLine = (v: BenchVerdict) => `${v.met ? MET : MISSED} ${v.target} — ${v.measured}`;

export function sectionText(s: BenchSection): string {
  const out = [`== ${plain(s.title)} ==`, `command: ${s.command}`];
  for (const t of s.tables) out.push('', `-- ${plain(t.title)}`, textTable(t.columns, t.rows));
  if (s.verdicts.length) out.push('', ...s.verdicts.map((v) => plain(verdictLine(v))));
  return `${out.join('\n')}\n`;
}

export function summaryText(outcomes: ModuleOutcome[]): string {
  return textTable(['module', 'target', 'measured', 'met'], summaryRows(outcomes));
}

// --- Markdown (docs/benchmarks.md) -----------------------------------------------------------------

/** A cell that reads as a number, a percentage or a list of them: right-aligned. */
function looksNumeric(cell: string): boolean {
  const c = plain(cell).trim();
  return c !== '' && /^[-+–~≈]?[\d.,]+ ?(%|ms|s|kB|KB|MB|x|×)?( \([^)]*\))?$|^–$/.test(c);
}

const escapeCell = (cell: string) => cell.replace(/\r?\n/g, '<br>').replace(/(?<!\\)\|/g, '\\|');

/** Columns whose every cell reads as a number: right-aligned. */
const numericColumns = (columns: string[], rows: string[][]) =>
  columns.map((_, i) => rows.length > 0 && rows.every((r) => looksNumeric(r[i] ?? '')));

export function markdownTable(t: Pick<BenchTable, 'columns' | 'rows'>): string {
  const numeric = numericColumns(t.columns, t.rows);
  return [
    `| ${t.columns.map(escapeCell).join(' | ')} |`,
    `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}

export function sectionMarkdown(s: BenchSection): string {
  const out = [`## ${s.title}`, '', '```sh', s.command, '```', '', s.method, ''];
  for (const t of s.tables) out.push(`### ${t.title}`, '', markdownTable(t), '');
  if (s.verdicts.length) {
    out.push('Verdicts:', '', ...s.verdicts.map((v) => `- ${verdictLine(v)}`), '');
  }
  if (s.notes?.length) out.push('Notes:', '', ...s.notes.flatMap((n) => [n, '']));
  return out.join('\n');
}

/** One row per verdict, plus a row for each section without a target and each module that gave none. */
export function summaryRows(outcomes: ModuleOutcome[]): string[][] {
  const rows: string[][] = [];
  for (const m of outcomes) {
    if (m.status === 'crashed') {
      rows.push([m.title, '–', `crashed: ${firstLine(m.error)}`, MISSED]);
      continue;
    }
    if (m.status === 'missing') {
      rows.push([m.title, '–', `not run: ${m.file} is missing`, '–']);
      continue;
    }
    if (m.status === 'skipped') {
      if (m.kept?.summaryRows.length) rows.push(...m.kept.summaryRows);
      else rows.push([m.title, '–', 'not run in this run (`--only`)', '–']);
      continue;
    }
    for (const s of m.sections) {
      if (s.verdicts.length === 0)
        rows.push([m.title, `no target written: ${s.title}`, 'see its section', '–']);
      for (const v of s.verdicts) rows.push([m.title, v.target, v.measured, v.met ? MET : MISSED]);
    }
  }
  return rows;
}

const firstLine = (text = '') => text.split('\n')[0]!.slice(0, 200);

/** The comment that opens a module's sections: whose they are and which run measured them. */
const moduleMarker = (name: string, from: string) => `<!-- bench module ${name}; run ${from} -->`;
const MARKER = /^<!-- bench module ([\w-]+); run (.*) -->$/;

/** A markdown table row's cells, split at the pipes that are not escaped. */
const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/**
 * What `previous` (docs/benchmarks.md as it is) says about each module: found by the marker before
 * its sections, or in a file written before there were markers, by its sections' headings (`## Title`
 * or `## Title: …`, or the title's first word and a colon, as `## BFF: overhead …`).
 */
export function keptModules(
  previous: string,
  modules: readonly { name: string; title: string }[],
): Map<string, KeptModule> {
  const lines = previous.split('\n');
  const summaryAt = lines.indexOf('## Summary');
  if (summaryAt < 0) return new Map();
  // The run the file describes, for sections written before there were markers.
  const headerValue = (key: string) =>
    lines
      .slice(0, summaryAt)
      .map(cellsOf)
      .find((c) => c[0] === key)?.[1];
  const fileRun =
    [headerValue('date'), headerValue('git commit')].filter(Boolean).join(', ') || 'an earlier run';
  // The summary's two tables: the verdicts, then the modules.
  const tables: string[][] = [];
  let i = summaryAt + 1;
  while (tables.length < 2 && i < lines.length) {
    if (lines[i]!.startsWith('|')) {
      const table: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) table.push(lines[i++]!);
      tables.push(table.slice(2));
    } else i++;
  }
  const [verdictRows = [], moduleRows = []] = tables;
  const owner = (heading: string): string | undefined =>
    modules.find(
      (m) =>
        heading === m.title ||
        heading.startsWith(`${m.title}:`) ||
        heading.split(':')[0] === m.title.split(' ')[0],
    )?.name;
  const sections = new Map<string, { from: string; lines: string[] }>();
  let current: { from: string; lines: string[] } | null = null;
  let marked: { name: string; from: string } | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = MARKER.exec(line);
    if (marker) {
      marked = { name: marker[1]!, from: marker[2]! };
      current = null;
      continue;
    }
    if (line.startsWith('## ')) {
      const name = marked?.name ?? owner(line.slice(3));
      const from = marked?.from ?? fileRun;
      marked = null;
      if (!name) {
        current = null;
        continue;
      }
      current = sections.get(name) ?? { from, lines: [] };
      sections.set(name, current);
    }
    current?.lines.push(line);
  }
  const kept = new Map<string, KeptModule>();
  for (const m of modules) {
    const s = sections.get(m.name);
    if (!s) continue;
    kept.set(m.name, {
      from: s.from,
      summaryRows: verdictRows.map(cellsOf).filter((c) => c[0] === m.title),
      took: moduleRows.map(cellsOf).find((c) => c[0] === m.title)?.[3] ?? '–',
      sections: s.lines.join('\n').trimEnd(),
    });
  }
  return kept;
}

export function reportMarkdown(header: RunHeader, outcomes: ModuleOutcome[], thisRun = ''): string {
  const keptRows = outcomes.flatMap((m) => (m.status === 'skipped' ? (m.kept?.summaryRows ?? []) : []));
  const verdicts = [
    ...outcomes.flatMap((m) => m.sections.flatMap((s) => s.verdicts)),
    ...keptRows.filter((r) => r[3] === MET || r[3] === MISSED).map((r) => ({ met: r[3] === MET })),
  ];
  const missed = verdicts.filter((v) => !v.met).length;
  const crashed = outcomes.filter((m) => m.status === 'crashed');
  const out = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts). Edit the bench modules, not this file. -->',
    '',
    'The speed figures the issues name, measured by the modules in `bench/` (see `bench/README.md`) ' +
      'against the bundled cloud, the BFF and the web app, each started fresh by the bench. This file is ' +
      'written whole by `npm run bench`; rerun it rather than editing it. A run of some modules ' +
      '(`--only`) keeps the others as the previous run wrote them, and the table below says which run ' +
      'measured each.',
    '',
  ];
  if (header.quick) {
    out.push(
      '> **Quick run** (`--quick`): few runs and small sizes, a smoke check of the suite. These are ' +
        'not reference figures; run `npm run bench` on a quiet machine for those.',
      '',
    );
  }
  out.push(markdownTable({ columns: ['run', ''], rows: header.rows }), '');
  out.push('## Summary', '');
  out.push(
    `${verdicts.length - missed} of ${verdicts.length} targets met` +
      (missed ? `, ${missed} missed (each section says why)` : '') +
      (crashed.length ? `; ${crashed.length} module${crashed.length > 1 ? 's' : ''} crashed` : '') +
      '.',
    '',
  );
  out.push(
    markdownTable({ columns: ['module', 'target', 'measured', 'met'], rows: summaryRows(outcomes) }),
    '',
  );
  out.push(
    markdownTable({
      columns: ['module', 'file', 'ran', 'took'],
      rows: outcomes.map((m) => [
        m.title,
        `\`${m.file}\``,
        m.kept
          ? `kept from the run of ${m.kept.from}`
          : {
              ok: 'yes',
              crashed: 'crashed',
              missing: 'not run: file missing',
              skipped: 'not run (`--only`)',
            }[m.status],
        m.kept ? m.kept.took : m.seconds === undefined ? '–' : `${Math.round(m.seconds)} s`,
      ]),
    }),
    '',
  );
  for (const m of outcomes) {
    if (m.status === 'ok') {
      out.push(moduleMarker(m.name, thisRun), '');
      for (const s of m.sections) out.push(sectionMarkdown(s));
    } else if (m.status === 'crashed') {
      out.push(moduleMarker(m.name, thisRun), '');
      out.push(`## ${m.title}: crashed`, '', `\`${m.file}\` threw:`, '', '```', m.error ?? '', '```', '');
    } else if (m.status === 'missing') {
      out.push(moduleMarker(m.name, thisRun), '');
      out.push(`## ${m.title}: not run`, '', `\`${m.file}\` does not exist yet.`, '');
    } else if (m.kept) {
      out.push(moduleMarker(m.name, m.kept.from), '', m.kept.sections, '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
