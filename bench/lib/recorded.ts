/**
 * Figures kept in the repository under a label ("before", "after"), so a later run can be shown
 * beside an earlier one: the round-trip bench's rows, and the reference-cloud journey times that
 * `npm run e2e:cloud` measures. One JSON file per kind in bench/recorded/, label → run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

export const RECORDED = {
  roundTrips: join(repoRoot, 'bench/recorded/roundtrips.json'),
  cloudJourneys: join(repoRoot, 'bench/recorded/cloud-journeys.json'),
} as const;

export interface RecordedRun<Row> {
  label: string;
  /** ISO date of the run. */
  date: string;
  /** Short commit, with ", dirty" when the tree had uncommitted changes. */
  commit: string;
  /** What it ran against and how (latency, cloud, sizes), in words. */
  setup: string;
  rows: Record<string, Row>;
}

export function readRecorded<Row>(file: string): Record<string, RecordedRun<Row>> {
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, RecordedRun<Row>>;
}

/** Keeps `run` under its label, replacing an earlier run of the same label. */
export function writeRecorded<Row>(file: string, run: RecordedRun<Row>): void {
  const all = readRecorded<Row>(file);
  all[run.label] = run;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  // In the repository's own format, so `biome check` passes on the committed file.
  try {
    execFileSync(
      process.execPath,
      [join(repoRoot, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', file],
      { cwd: repoRoot, stdio: 'ignore' },
    );
  } catch {
    // Without biome the file is still valid JSON; `npm run format` tidies it.
  }
}

/** The checkout's commit as the recorded runs name it. */
export function currentCommit(): string {
  const git = (args: string[]) =>
    execFileSync('git', args, {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    const head = git(['rev-parse', '--short', 'HEAD']);
    // --no-optional-locks: reading the status must not rewrite the index under anyone's feet.
    return git(['--no-optional-locks', 'status', '--porcelain']) ? `${head}, dirty` : head;
  } catch {
    return 'unknown';
  }
}
