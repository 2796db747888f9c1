import { defineProject } from 'vitest/config';

// The cloud's tests. The root vitest.config.ts runs this project once per database engine
// (CLOUD_TEST_ENGINE=sqlite always, =postgres as well when TEST_DATABASE_URL is set).
export default defineProject({
  test: {
    name: 'cloud',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { CLOUD_TEST_ENGINE: process.env.CLOUD_TEST_ENGINE ?? 'sqlite' },
  },
});
