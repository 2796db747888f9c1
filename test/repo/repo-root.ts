import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, wherever it was cloned. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
