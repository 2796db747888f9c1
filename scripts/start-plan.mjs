// What `npm start` (scripts/start.mjs) runs and says, worked out from its environment alone so that the
// rules can be tested without starting anything.
import { join, resolve } from 'node:path';

/** An address a server listens on, as a browser on this machine reaches it. */
function reachableHost(host) {
  const h = ['0.0.0.0', '::', '[::]'].includes(host) ? '127.0.0.1' : host;
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

const withoutTrailingSlash = (url) => url.replace(/\/+$/, '');

/**
 * The children's environment: the user's, plus pretty logs unless LOG_FORMAT is set, and colour only
 * for a terminal. NO_COLOR or FORCE_COLOR set by the user is their choice and stays as it is.
 */
export function childEnvironment(env, { tty }) {
  const out = { ...env, LOG_FORMAT: env.LOG_FORMAT || 'pretty' };
  if (env.NO_COLOR) {
    delete out.FORCE_COLOR;
  } else if (!env.FORCE_COLOR) {
    if (tty) out.FORCE_COLOR = '1';
    else out.NO_COLOR = '1';
  }
  return out;
}

/** The one line a person acts on once everything answers. */
export function bannerLine({ dashboardUrl, bundledCloud, authUrl, demoPassword, adminPassword }) {
  return bundledCloud
    ? `Dashboard: ${dashboardUrl} — sign in as demo / ${demoPassword} (admin / ${adminPassword})`
    : `Dashboard: ${dashboardUrl} — sign in with an account of the cloud at ${authUrl}`;
}

/**
 * Everything start.mjs needs: URLs to poll, each child's environment, where the web app is, the banner.
 * `root` is the repository's root; `tty` whether start's own output is a terminal.
 */
export function startPlan(env, { root, tty }) {
  const cloudPort = env.CLOUD_PORT || '8780';
  const identityUrl = `http://${reachableHost(env.CLOUD_HOST || '127.0.0.1')}:${cloudPort}/identity/v3`;
  const authUrl = withoutTrailingSlash(env.OS_AUTH_URL || identityUrl);
  const port = env.PORT || '8080';
  const dashboardUrl = `http://${reachableHost(env.HOST || '127.0.0.1')}:${port}`;
  const base = childEnvironment(env, { tty });
  // Children run from the repository's root, so a relative WEB_DIST is taken from there.
  const webDist = env.WEB_DIST ? resolve(root, env.WEB_DIST) : join(root, 'apps/web/dist');
  return {
    identityUrl,
    dashboardUrl,
    healthUrl: `${dashboardUrl}/api/health`,
    /** The BFF serves the web app from here; start builds it there when it is missing. */
    webDist,
    /** Vite's own output directory (apps/web/dist) is not where the web app is wanted. */
    customWebDist: Boolean(env.WEB_DIST),
    buildEnv: base,
    /** What the children will listen on, checked before anything starts (another stack may hold it). */
    listens: [
      {
        what: 'the bundled cloud',
        host: env.CLOUD_HOST || '127.0.0.1',
        port: Number(cloudPort),
        variable: 'CLOUD_PORT',
      },
      { what: 'the dashboard', host: env.HOST || '127.0.0.1', port: Number(port), variable: 'PORT' },
    ],
    cloudEnv: { ...base, CLOUD_PORT: cloudPort },
    bffEnv: { ...base, OS_AUTH_URL: authUrl, PORT: port, ...(env.WEB_DIST ? { WEB_DIST: webDist } : {}) },
    banner: bannerLine({
      dashboardUrl,
      bundledCloud: authUrl === identityUrl,
      authUrl,
      demoPassword: env.OS_DEMO_PASSWORD || 'demo',
      adminPassword: env.OS_ADMIN_PASSWORD || 'admin',
    }),
  };
}

/** The words `npm start` says when a port it needs is taken, with the way out. */
export function portTakenMessage(taken, listens) {
  const t = taken[0];
  const others = listens
    .map((l) => `${l.variable}=${l.port + (taken.some((x) => x.variable === l.variable) ? 1 : 0)}`)
    .join(' ');
  const names = taken.map((x) => `${x.port} (${x.what})`).join(' and ');
  return (
    `port ${names} ${taken.length > 1 ? 'are' : 'is'} already in use on ${t.host}; is another \`npm start\` running? ` +
    `Stop it, or start on other ports: ${others} npm start`
  );
}
