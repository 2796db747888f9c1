import type { CloudDeps } from '../app.js';

/**
 * On start, finishes what a previous process left half-done in the volume backend.
 * (Filled in with the volume lifecycle: volumes stuck in `creating`, `deleting`, ...)
 */
export async function reconcileVolumes(_deps: CloudDeps): Promise<void> {}
