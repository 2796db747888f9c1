import { describe, expect, it } from 'vitest';
import { keptModules, type ModuleOutcome, reportMarkdown, type RunHeader } from './report.js';
import type { BenchSection } from './types.js';

// `npm run bench -- --only <module>` rewrites docs/benchmarks.md; the modules it leaves out keep what
// the previous run wrote about them, so a run of one module on a shared machine loses nothing.

const MODULES = [
  { name: 'multi-create', title: 'Multi-create', file: 'bench/multi-create.bench.ts' },
  { name: 'bff', title: 'BFF overhead', file: 'bench/bff-overhead.bench.ts' },
  { name: 'roundtrips', title: 'Round trips', file: 'bench/roundtrips.bench.ts' },
] as const;

const header = (date: string, commit: string): RunHeader => ({
  quick: false,
  rows: [
    ['date', date],
    ['git commit', `\`${commit}\``],
  ],
});

const section = (title: string, met: boolean, body: string): BenchSection => ({
  title,
  command: 'npx tsx bench/x.ts',
  method: body,
  tables: [{ title: 'figures', columns: ['what', 'ms'], rows: [['a | b', '12']] }],
  verdicts: [{ target: `${title} target`, measured: 'measured', met }],
});

const ran = (m: (typeof MODULES)[number], sections: BenchSection[]): ModuleOutcome => ({
  ...m,
  status: 'ok',
  sections,
  seconds: 30,
});
const skipped = (m: (typeof MODULES)[number]): ModuleOutcome => ({ ...m, status: 'skipped', sections: [] });

/** A whole run of the three modules, as `npm run bench` writes it. */
const fullRun = reportMarkdown(
  header('2026-11-21 18:27 UTC', 'aaaaaaa'),
  [
    ran(MODULES[0], [section('Multi-create', true, 'one request against N creates')]),
    ran(MODULES[1], [
      section('BFF: overhead against calling the cloud directly', false, 'the BFF against a direct client'),
    ]),
    ran(MODULES[2], [section('Round trips: each action', false, 'first round-trip run')]),
  ],
  '2026-11-21 18:27 UTC, `aaaaaaa`',
);

describe('a run with --only', () => {
  it('keeps the modules it did not run as the previous run wrote them, and says which run that was', () => {
    const kept = keptModules(fullRun, MODULES);
    const next = reportMarkdown(
      header('2026-11-25 22:40 UTC', 'bbbbbbb'),
      [
        { ...skipped(MODULES[0]), kept: kept.get('multi-create')! },
        { ...skipped(MODULES[1]), kept: kept.get('bff')! },
        ran(MODULES[2], [section('Round trips: each action', true, 'second round-trip run')]),
      ],
      '2026-11-25 22:40 UTC, `bbbbbbb`',
    );
    expect(next).toContain('one request against N creates');
    expect(next).toContain('the BFF against a direct client');
    expect(next).toContain('second round-trip run');
    expect(next).not.toContain('first round-trip run');
    // The summary counts the kept verdicts with the new ones: 2 met (multi-create, round trips), 1 missed.
    expect(next).toContain('2 of 3 targets met, 1 missed');
    expect(next).toContain(
      '| BFF overhead | BFF: overhead against calling the cloud directly target | measured | ✗ |',
    );
    expect(next).toMatch(
      /\| Multi-create \| `bench\/multi-create.bench.ts` \| kept from the run of 2026-11-21 18:27 UTC, `aaaaaaa` \| 30 s \|/,
    );
    expect(next).toContain('<!-- bench module roundtrips; run 2026-11-25 22:40 UTC, `bbbbbbb` -->');
    // A cell's escaped pipe stays one cell.
    expect(next).toContain('| a \\| b | 12 |');

    // And a later --only run of another module keeps each as measured by its own run.
    const third = keptModules(next, MODULES);
    expect(third.get('multi-create')!.from).toBe('2026-11-21 18:27 UTC, `aaaaaaa`');
    expect(third.get('roundtrips')!.from).toBe('2026-11-25 22:40 UTC, `bbbbbbb`');
    expect(third.get('roundtrips')!.sections).toContain('second round-trip run');
  });

  it('finds the modules of a file written before there were markers by their headings', () => {
    const legacy = fullRun.replace(/^<!-- bench module .* -->\n\n/gm, '');
    expect(legacy).not.toContain('<!-- bench module');
    const kept = keptModules(legacy, MODULES);
    expect(kept.get('multi-create')!.sections).toMatch(/^## Multi-create\n/);
    expect(kept.get('bff')!.sections).toMatch(/^## BFF: overhead against calling the cloud directly\n/);
    expect(kept.get('bff')!.sections).not.toContain('Round trips');
    expect(kept.get('bff')!.from).toBe('2026-11-21 18:27 UTC, `aaaaaaa`');
    expect(kept.get('bff')!.summaryRows).toEqual([
      ['BFF overhead', 'BFF: overhead against calling the cloud directly target', 'measured', '✗'],
    ]);
    expect(kept.get('bff')!.took).toBe('30 s');
  });

  it('keeps nothing of a module the previous file does not have', () => {
    const kept = keptModules(fullRun, [...MODULES, { name: 'new', title: 'New module' }]);
    expect(kept.has('new')).toBe(false);
    expect(keptModules('# Benchmarks\n\nnothing yet\n', MODULES).size).toBe(0);
  });
});
