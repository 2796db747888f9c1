import { EventEmitter } from 'node:events';
import type { ChangeEvent } from '@sv/shared';

/**
 * In-process change notifications, keyed by project: a mutation made through this BFF
 * publishes at once; the SSE stream also watches the cloud for changes made elsewhere.
 */
export class ChangeBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  publish(projectId: string, kind: ChangeEvent['kind'], ids: string[]): void {
    const event: ChangeEvent = { kind, ids, at: new Date().toISOString() };
    this.#emitter.emit(projectId, event);
    this.#emitter.emit('*', event);
  }

  /** Listens to one project's changes (admins viewing the whole cloud pass '*'). Returns the unsubscribe. */
  subscribe(projectId: string, listener: (event: ChangeEvent) => void): () => void {
    this.#emitter.on(projectId, listener);
    return () => this.#emitter.off(projectId, listener);
  }
}
