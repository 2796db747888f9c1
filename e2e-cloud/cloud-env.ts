/**
 * What `npm run e2e:cloud` needs to know about the cloud it runs against, from the environment: the
 * Keystone URL and a member's credentials (required), an admin's (optional: the topology journey
 * then sees the whole cloud), and how to name and record what it does. Read by
 * playwright.cloud.config.ts (to start the BFF) and by the journeys.
 */

export interface CloudUser {
  username: string;
  password: string;
  /** Unset: the user's first project, as the login page does with the field empty. */
  project?: string;
}

export interface CloudEnv {
  authUrl: string;
  member: CloudUser;
  admin: CloudUser | null;
  /** Every resource the journeys make is named `<prefix>-<run>-…`; leftovers with the prefix are removed. */
  prefix: string;
  /** A flavor name or id; unset: the one with the least RAM. */
  flavor: string | null;
  /** An availability zone for the launch; unset: the wizard's "Any zone". */
  zone: string | null;
  /** Keep this run's journey times under this label in bench/recorded/cloud-journeys.json. */
  record: string | null;
  /** Words about the cloud for the record (release, where it runs). */
  description: string | null;
}

const USAGE =
  "npm run e2e:cloud needs E2E_OS_AUTH_URL (the cloud's Keystone v3 URL), E2E_OS_USERNAME and E2E_OS_PASSWORD " +
  '(a member of a project; E2E_OS_PROJECT to name the project), and optionally E2E_OS_ADMIN_USERNAME, ' +
  'E2E_OS_ADMIN_PASSWORD and E2E_OS_ADMIN_PROJECT for the topology as an admin.';

const value = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

export function cloudEnv(env: NodeJS.ProcessEnv = process.env): CloudEnv {
  const authUrl = value(env, 'E2E_OS_AUTH_URL');
  const username = value(env, 'E2E_OS_USERNAME');
  const password = env.E2E_OS_PASSWORD;
  const missing = [
    ...(authUrl ? [] : ['E2E_OS_AUTH_URL']),
    ...(username ? [] : ['E2E_OS_USERNAME']),
    ...(password ? [] : ['E2E_OS_PASSWORD']),
  ];
  if (missing.length > 0) throw new Error(`${missing.join(', ')} not set. ${USAGE}`);
  try {
    new URL(authUrl!);
  } catch {
    throw new Error(`E2E_OS_AUTH_URL is not a URL: ${authUrl}. ${USAGE}`);
  }
  const project = value(env, 'E2E_OS_PROJECT');
  const adminName = value(env, 'E2E_OS_ADMIN_USERNAME');
  const adminProject = value(env, 'E2E_OS_ADMIN_PROJECT');
  if (adminName && !env.E2E_OS_ADMIN_PASSWORD) {
    throw new Error(`E2E_OS_ADMIN_USERNAME is set without E2E_OS_ADMIN_PASSWORD. ${USAGE}`);
  }
  const prefix = value(env, 'E2E_CLOUD_PREFIX') ?? 'e2ecloud';
  if (!/^[a-z][a-z0-9]{2,19}$/.test(prefix)) {
    throw new Error(
      `E2E_CLOUD_PREFIX must be 3-20 lower-case letters and digits, starting with a letter: ${prefix}`,
    );
  }
  return {
    authUrl: authUrl!.replace(/\/+$/, ''),
    member: { username: username!, password: password!, ...(project ? { project } : {}) },
    admin: adminName
      ? {
          username: adminName,
          password: env.E2E_OS_ADMIN_PASSWORD!,
          ...(adminProject ? { project: adminProject } : {}),
        }
      : null,
    prefix,
    flavor: value(env, 'E2E_CLOUD_FLAVOR') ?? null,
    zone: value(env, 'E2E_CLOUD_ZONE') ?? null,
    record: value(env, 'E2E_CLOUD_RECORD') ?? null,
    description: value(env, 'E2E_CLOUD_DESCRIPTION') ?? null,
  };
}
