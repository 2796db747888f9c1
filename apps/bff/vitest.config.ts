import { defineProject } from 'vitest/config';

// The BFF's tests run against the real bundled cloud started in-process (SQLite in memory).
export default defineProject({
  test: {
    name: 'bff',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { CLOUD_TEST_ENGINE: 'sqlite' },
  },
});
