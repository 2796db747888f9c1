import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Test environment contract (read by apps/cloud/test/helpers):
// - project `cloud`    runs apps/cloud's tests with CLOUD_TEST_ENGINE=sqlite (always);
// - project `cloud-pg` runs the same files with CLOUD_TEST_ENGINE=postgres and TEST_DATABASE_URL,
//   only when TEST_DATABASE_URL is set (e.g. postgres://postgres@127.0.0.1:5432/test).
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

const cloud = (name: string, env: Record<string, string>): TestProjectInlineConfiguration => ({
  extends: './apps/cloud/vitest.config.ts',
  root: './apps/cloud',
  test: { name, env },
});

const projects: TestProjectInlineConfiguration[] = [
  cloud('cloud', { CLOUD_TEST_ENGINE: 'sqlite' }),
  ...(testDatabaseUrl
    ? [cloud('cloud-pg', { CLOUD_TEST_ENGINE: 'postgres', TEST_DATABASE_URL: testDatabaseUrl })]
    : []),
  { extends: './apps/bff/vitest.config.ts', root: './apps/bff', test: { name: 'bff' } },
  { extends: './apps/web/vite.config.ts', root: './apps/web', test: { name: 'web' } },
  // Real cloud and BFF processes (several on one PostgreSQL, kill -9 and restart): run once, one
  // file at a time, since each file starts its own processes.
  {
    test: {
      name: 'reliability',
      root: '.',
      environment: 'node',
      include: ['test/reliability/**/*.test.ts'],
      testTimeout: 180_000,
      hookTimeout: 120_000,
      fileParallelism: false,
      ...(testDatabaseUrl ? { env: { TEST_DATABASE_URL: testDatabaseUrl } } : {}),
    },
  },
  // The repository as a whole: it stands alone, its README matches the code, `npm start` and the
  // production build work (test/repo; some of these start real processes).
  {
    test: {
      name: 'repo',
      root: '.',
      environment: 'node',
      include: ['test/repo/**/*.test.ts'],
      testTimeout: 180_000,
      hookTimeout: 120_000,
    },
  },
  // The Tempest harness's own logic; Tempest itself runs as npm test's tempest step.
  {
    test: {
      name: 'tempest-harness',
      root: '.',
      environment: 'node',
      include: ['test/tempest/**/*.test.ts'],
    },
  },
  // The bench's instruments (the latency proxy, the round-trip arithmetic); the benches themselves
  // run under `npm run bench`, never here.
  {
    test: {
      name: 'bench',
      root: '.',
      environment: 'node',
      include: ['bench/**/*.test.ts'],
    },
  },
  {
    root: './packages/shared',
    test: {
      name: 'shared',
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    },
  },
];

export default defineConfig({
  test: {
    projects,
    passWithNoTests: true,
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
