import type { Express } from 'express';

/** What Express 5 (router 2.x) keeps on each layer of a router's stack. */
interface Layer {
  /** The path the layer was mounted at (`router.use('/v3', …)`); router 2.x keeps it as given. */
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * Every route the app serves, as `METHOD /path/:param`, read from the routers themselves so a new
 * route cannot hide from the authorization table. A route answered for any method
 * (`router.all`) is `ALL`. Left out: the `OPTIONS` handler and the 405 catch-all that Keystone's
 * resources add to every path (Flask's behaviour, the same whoever asks).
 */
export function servedRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const methods = Object.keys(layer.route.methods).filter((m) => layer.route?.methods[m]);
        const named = methods.filter((m) => m !== '_all' && m !== 'options');
        const verbs = named.length > 0 ? named.map((m) => m.toUpperCase()) : ['ALL'];
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) for (const v of verbs) out.push(`${v} ${prefix}${p}`);
      } else if (layer.handle?.stack) {
        const mounts = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath ?? '/'];
        for (const m of mounts) {
          if (typeof m !== 'string') throw new Error(`a router mounted at a non-string path: ${String(m)}`);
          walk(layer.handle.stack, prefix + (m === '/' ? '' : m));
        }
      }
    }
  };
  const root = (app as unknown as { router?: { stack: Layer[] } }).router;
  if (!root) throw new Error('no router on this Express app');
  walk(root.stack, '');
  return [...new Set(out)].sort();
}
