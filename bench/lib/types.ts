/**
 * What every bench module hands to `bench/run.ts` (`npm run bench`), which prints the tables and
 * writes docs/benchmarks.md. A module exports `run(ctx)`; it may also run on its own (`npx tsx
 * bench/<name>.bench.ts`) and print its own section the same way.
 */

export type Engine = 'sqlite' | 'postgres';

export interface BenchContext {
  /** Engines to run on: always sqlite; postgres when a PostgreSQL URL is available. */
  engines: Engine[];
  /** A postgres:// URL of a server where scratch databases may be created (TEST_DATABASE_URL). */
  pgUrl?: string;
  /** Timed repetitions per figure (the median is reported); `--quick` makes it small. */
  runs: number;
  quick: boolean;
  /** Progress lines (stderr), not results. */
  log(line: string): void;
}

/** One table in the report. */
export interface BenchTable {
  title: string;
  columns: string[];
  /** Already formatted cells, one array per row, same length as `columns`. */
  rows: string[][];
}

/** A target the issue names, and whether this run met it. */
export interface BenchVerdict {
  target: string;
  measured: string;
  met: boolean;
}

export interface BenchSection {
  /** `## ` heading in docs/benchmarks.md. */
  title: string;
  /** The command that reproduces this section alone. */
  command: string;
  /** What was measured and how, in a few sentences (markdown). */
  method: string;
  tables: BenchTable[];
  verdicts: BenchVerdict[];
  /** Findings: why a target was missed, what limits a figure (markdown paragraphs). */
  notes?: string[];
}

export type BenchModule = { run(ctx: BenchContext): Promise<BenchSection[]> };
