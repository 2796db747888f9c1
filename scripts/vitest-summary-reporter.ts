// Counts every Vitest test and writes the counts where scripts/test.mjs reads them.
// Vitest's own summary is not what CI reads; scripts/test.mjs prints the closing line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Reporter, SerializedError, TestModule, TestRunEndReason, TestSuite } from 'vitest/node';

export const VITEST_RESULTS_FILE = process.env.VITEST_RESULTS_FILE ?? '.test-results/vitest.json';

export interface VitestCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Failures outside any test: a file that does not import, a failing beforeAll/afterAll, an unhandled error. */
  errors: number;
  reason: TestRunEndReason;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const counts: VitestCounts = { passed: 0, failed: 0, skipped: 0, errors: unhandledErrors.length, reason };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      // A module or suite with its own errors (collection error, failing hook) counts once as a failure
      // unless one of its tests already failed.
      const owners: Array<TestModule | TestSuite> = [m, ...m.children.allSuites()];
      for (const owner of owners) {
        if (owner.errors().length === 0) continue;
        const testFailed = [...owner.children.allTests('failed')].length > 0;
        if (!testFailed) counts.errors++;
      }
    }
    const file = resolve(VITEST_RESULTS_FILE);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(counts, null, 2)}\n`);
    const extra = counts.errors > 0 ? `, ${counts.errors} errors outside tests` : '';
    process.stdout.write(
      `\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${extra}\n`,
    );
  }
}
