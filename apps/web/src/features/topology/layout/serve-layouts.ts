import { type ElkLike, layoutTopology } from './layout';
import type { LayoutRequest, LayoutResponse } from './layout-types';

/**
 * Answers layout requests inside a Web Worker. The app compiles against the DOM lib, so the
 * worker scope is typed here by the two members it uses.
 */
export function serveLayouts(elk?: ElkLike): void {
  const scope = self as unknown as {
    postMessage(msg: LayoutResponse): void;
    onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  };
  const post = (msg: LayoutResponse) => scope.postMessage(msg);
  // Assigned, not added: elk's worker code installs its own self.onmessage when it loads inside a
  // worker, and ours must replace it or elk would answer our requests too.
  scope.onmessage = (event) => {
    const { id, input, mode } = event.data;
    layoutTopology(input, {
      mode,
      onPhase: (phase) => post({ id, type: 'progress', phase }),
      ...(elk ? { elk } : {}),
    })
      .then((result) => post({ id, type: 'done', result }))
      .catch((err: unknown) =>
        post({ id, type: 'error', message: err instanceof Error ? err.message : String(err) }),
      );
  };
}
