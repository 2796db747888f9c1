export * from './api-paths.js';
export * from './errors.js';
export * from './events.js';
export * from './health.js';
export * from './holds.js';
export * from './hosts.js';
export * from './launch.js';
export * from './launch-choices.js';
export * from './lists.js';
export * from './preflight.js';
export * from './servers.js';
export * from './session.js';
export * from './topology.js';
export * from './volumes.js';
export * from './volume-actions.js';
// --- web17: snapshots ---
export * from './snapshots.js';
// --- web17: bulk detach ---
export * from './bulk-detach.js';
