/**
 * The routes an Express 5 app really serves, read from its router stacks (router 2.x keeps each
 * layer's path as `rawPath`): `METHOD /full/path` with mount paths joined in front.
 *
 * - A route's `all()` fallback next to real methods (Keystone's 405 answer) is not an endpoint;
 *   a route with only `all()` (the compute version list) is listed as `ALL`.
 * - OPTIONS handlers (Keystone answers OPTIONS with Allow on every path) are not listed: the fuzz
 *   sends OPTIONS to every path anyway as a wrong method.
 * - Plain middleware (version choices, 404 catch-alls) answers for many paths and is no route.
 */

interface Layer {
  rawPath?: unknown;
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const joinPath = (prefix: string, path: string) => {
  if (path === '/' || path === '') return prefix === '' ? '/' : `${prefix}/`;
  return `${prefix}${path}`;
};

function walk(stack: Layer[], prefix: string, out: Set<string>): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const methods = Object.entries(layer.route.methods)
        .filter(([, on]) => on)
        .map(([m]) => m);
      const real = methods.filter((m) => m !== '_all' && m !== 'options');
      const listed = real.length > 0 ? real : methods.includes('_all') ? ['all'] : [];
      for (const p of paths) for (const m of listed) out.add(`${m.toUpperCase()} ${joinPath(prefix, p)}`);
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      walk(layer.handle.stack, `${prefix}${mount}`, out);
    }
  }
}

/** Every `METHOD /path` the app routes, sorted. */
export function servedRoutes(app: unknown): string[] {
  const router = (app as { router?: { stack: Layer[] } }).router;
  if (!router) throw new Error('not an Express 5 app (no app.router)');
  const out = new Set<string>();
  walk(router.stack, '', out);
  return [...out].sort();
}
