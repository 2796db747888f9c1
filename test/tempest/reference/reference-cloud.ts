import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { CloudValues } from '../harness.js';
import { tempestDir } from '../harness.js';

/**
 * The reference cloud (a real Nova 26 / Cinder 21 with fake drivers, run by the team outside this
 * repository) made ready for the same tempest.conf as the bundled cloud: an image service stand-in
 * on the port its Nova reads images from (it has no Glance), and the alternate flavor Tempest needs.
 * A development tool for measuring reference-pass.txt; `npm test` never uses it.
 *
 * REFERENCE_AUTH_URL (default http://127.0.0.1:5000/v3), REFERENCE_ADMIN_PASSWORD (default oracle).
 */

/** The bundled cloud's seeded cirros id, served by the stand-in, so both clouds boot the same image id. */
export const REFERENCE_IMAGE_ID = '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d';
const IMAGE_STAND_IN_PORT = 9292;
const FLAVOR_ALT = { id: '42', name: 'tempest-alt-m1.nano', ram: 128, disk: 1, vcpus: 1 };

export interface ReferenceCloud {
  values: CloudValues;
  close(): Promise<void>;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function adminSession(
  authUrl: string,
  password: string,
): Promise<{ token: string; computeUrl: string }> {
  const res = await fetch(`${authUrl}/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'admin', domain: { id: 'default' }, password } },
        },
        scope: { project: { name: 'admin', domain: { id: 'default' } } },
      },
    }),
  });
  const token = res.headers.get('x-subject-token');
  if (!res.ok || !token) throw new Error(`reference cloud: admin login failed (HTTP ${res.status})`);
  const body = (await res.json()) as {
    token: { catalog: { type: string; endpoints: { interface: string; url: string }[] }[] };
  };
  const compute = body.token.catalog.find((s) => s.type === 'compute');
  const computeUrl = compute?.endpoints.find((e) => e.interface === 'public')?.url;
  if (!computeUrl) throw new Error('reference cloud: no public compute endpoint in the catalog');
  return { token, computeUrl: computeUrl.replace(/\/$/, '') };
}

export async function openReference(env: NodeJS.ProcessEnv = process.env): Promise<ReferenceCloud> {
  const authUrl = (env.REFERENCE_AUTH_URL ?? 'http://127.0.0.1:5000/v3').replace(/\/$/, '');
  const password = env.REFERENCE_ADMIN_PASSWORD ?? 'oracle';
  const { token, computeUrl } = await adminSession(authUrl, password);
  const headers = { 'X-Auth-Token': token, 'Content-Type': 'application/json' };

  let standIn: ChildProcess | undefined;
  if (await portAnswers(IMAGE_STAND_IN_PORT)) {
    process.stdout.write(`[reference] something already answers on ${IMAGE_STAND_IN_PORT}; using it\n`);
  } else {
    standIn = spawn(
      process.execPath,
      [join(tempestDir, 'reference', 'image-stand-in.mjs'), String(IMAGE_STAND_IN_PORT), REFERENCE_IMAGE_ID],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 50 && !(await portAnswers(IMAGE_STAND_IN_PORT)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  let createdFlavor = false;
  const existing = await fetch(`${computeUrl}/flavors/${FLAVOR_ALT.id}`, { headers });
  if (existing.status === 404) {
    const res = await fetch(`${computeUrl}/flavors`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ flavor: FLAVOR_ALT }),
    });
    if (!res.ok)
      throw new Error(`reference cloud: could not create flavor ${FLAVOR_ALT.id} (HTTP ${res.status})`);
    createdFlavor = true;
  }

  return {
    values: {
      identityUri: authUrl,
      adminUsername: 'admin',
      adminPassword: password,
      adminProject: 'admin',
      imageRef: REFERENCE_IMAGE_ID,
      flavorRef: '1',
      flavorRefAlt: FLAVOR_ALT.id,
    },
    async close() {
      if (createdFlavor) {
        // A fresh token, in case the run outlived the first one.
        const again = await adminSession(authUrl, password);
        await fetch(`${computeUrl}/flavors/${FLAVOR_ALT.id}`, {
          method: 'DELETE',
          headers: { 'X-Auth-Token': again.token },
        });
      }
      if (standIn && standIn.exitCode === null) {
        standIn.kill('SIGTERM');
        await new Promise((r) => standIn?.once('exit', r));
      }
    },
  };
}
