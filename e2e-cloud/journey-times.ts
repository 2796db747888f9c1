/**
 * The wall time of each journey, printed as it is measured and collected in
 * .test-results/cloud-journeys.json (the journeys may run in more than one worker process). At the
 * end of the run (global teardown) the times are printed together and, with E2E_CLOUD_RECORD, kept
 * under that label in bench/recorded/cloud-journeys.json, which the round-trip bench shows in
 * docs/benchmarks.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentCommit, RECORDED, writeRecorded } from '../bench/lib/recorded';
import { cloudEnv } from './cloud-env';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(root, '.test-results/cloud-journeys.json');

export interface JourneyTime {
  /** The median of the samples (a run with --repeat-each has several). */
  ms: number;
  samples: number[];
  /** What was timed, in words. */
  what: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};

interface Results {
  /** The cloud as the BFF discovered it (microversions, launch path, topology source). */
  cloud: string | null;
  journeys: Record<string, JourneyTime>;
}

function read(): Results {
  if (!existsSync(RESULTS)) return { cloud: null, journeys: {} };
  return JSON.parse(readFileSync(RESULTS, 'utf8')) as Results;
}

function write(r: Results): void {
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(r, null, 2)}\n`);
}

export function recordJourney(name: string, what: string, ms: number): void {
  const r = read();
  const samples = [...(r.journeys[name]?.samples ?? []), Math.round(ms)];
  r.journeys[name] = { ms: median(samples), samples, what };
  write(r);
  process.stdout.write(`journey ${name}: ${Math.round(ms)} ms (${what})\n`);
}

export function recordCloud(words: string): void {
  write({ ...read(), cloud: words });
}

/** Global setup: a run starts with no times. */
export function forgetTimes(): void {
  rmSync(RESULTS, { force: true });
}

/** Global teardown: every time together, and kept under E2E_CLOUD_RECORD's label when set. */
export function reportTimes(): void {
  const r = read();
  const names = Object.keys(r.journeys);
  if (names.length === 0) {
    process.stdout.write('\nNo journey was timed.\n');
    return;
  }
  const width = Math.max(...names.map((n) => n.length));
  process.stdout.write(`\nJourney times against ${cloudEnv().authUrl}${r.cloud ? ` (${r.cloud})` : ''}:\n`);
  for (const n of names) {
    const j = r.journeys[n]!;
    const all = j.samples.length > 1 ? ` (median of ${j.samples.join(', ')})` : '';
    process.stdout.write(`  ${n.padEnd(width)}  ${String(j.ms).padStart(7)} ms  ${j.what}${all}\n`);
  }
  const env = cloudEnv();
  if (env.record) {
    writeRecorded(RECORDED.cloudJourneys, {
      label: env.record,
      date: new Date().toISOString(),
      commit: currentCommit(),
      setup: [
        env.description,
        r.cloud,
        `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end`,
      ]
        .filter(Boolean)
        .join('; '),
      rows: r.journeys,
    });
    process.stdout.write(`Recorded as "${env.record}" in bench/recorded/cloud-journeys.json.\n`);
  }
}
