import { test as base } from 'vitest';
import { inventory } from './inventory.js';
import { type ApiClient, startStack, type TestStack } from './stack.js';

/**
 * What most BFF tests start from, as Vitest fixtures set up once per file when a test first asks:
 * `stack` (the bundled cloud and a BFF on it, closed after the file), `member` and `operator`
 * (browser-like clients signed in as demo and admin) and `inv` (cloud data made straight through
 * the cloud's API). A file with a differently configured stack keeps its own setup.
 */
export const test = base.extend<{
  $file?: { stack: TestStack; member: ApiClient; operator: ApiClient; inv: ReturnType<typeof inventory> };
}>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const stack = await startStack();
      await use(stack);
      await stack.close();
    },
    { scope: 'file' },
  ],
  member: [async ({ stack }, use) => use(await stack.signIn('demo')), { scope: 'file' }],
  operator: [async ({ stack }, use) => use(await stack.signIn('admin')), { scope: 'file' }],
  inv: [async ({ stack }, use) => use(inventory(stack)), { scope: 'file' }],
});

export const it = test;
export { describe, expect } from 'vitest';
