import { describe, expect } from 'vitest';
import { http, login, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { expectKeystoneError, forbiddenMessage } from './identity-helpers.js';

let tc: TestCloud;
let admin: Session;
let demo: Session;
const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  admin = adminSession;
  demo = demoSession;
});

const asAdmin = (method: string, path: string, body?: unknown) =>
  http(tc, method, `/identity/v3${path}`, { token: admin.token, ...(body !== undefined ? { body } : {}) });

describe('projects', () => {
  it('creates a project (201) with Keystone defaults and shows it', async () => {
    const res = await asAdmin('POST', '/projects', { project: { name: 'alpha', description: 'first' } });
    expect(res.status).toBe(201);
    const p = res.body.project;
    expect(p).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'alpha',
      domain_id: 'default',
      description: 'first',
      enabled: true,
      parent_id: 'default',
      is_domain: false,
      tags: [],
      options: {},
      links: { self: `${tc.url}/identity/v3/projects/${p.id}` },
    });
    const show = await asAdmin('GET', `/projects/${p.id}`);
    expect(show.status).toBe(200);
    expect(show.body).toEqual({ project: p });
  });

  it('lists projects ordered by id with links, filtered by name, domain_id and enabled (capture 86)', async () => {
    await asAdmin('POST', '/projects', { project: { name: 'beta', enabled: false } });
    const all = await asAdmin('GET', '/projects');
    expect(all.status).toBe(200);
    const names = all.body.projects.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['admin', 'demo', 'service', 'alpha', 'beta']));
    const ids = all.body.projects.map((p: { id: string }) => p.id);
    expect(ids).toEqual([...ids].sort());
    expect(all.body.links).toEqual({ next: null, self: `${tc.url}/identity/v3/projects`, previous: null });

    const byName = await asAdmin('GET', '/projects?name=alpha');
    expect(byName.body.projects.map((p: { name: string }) => p.name)).toEqual(['alpha']);
    expect(byName.body.links.self).toBe(`${tc.url}/identity/v3/projects?name=alpha`);
    const disabled = await asAdmin('GET', '/projects?enabled=false');
    expect(disabled.body.projects.map((p: { name: string }) => p.name)).toEqual(['beta']);
    const enabled = await asAdmin('GET', '/projects?enabled=true');
    expect(enabled.body.projects.map((p: { name: string }) => p.name)).not.toContain('beta');
    expect((await asAdmin('GET', '/projects?domain_id=default')).body.projects).toHaveLength(names.length);
    expect((await asAdmin('GET', '/projects?domain_id=other')).body.projects).toEqual([]);
  });

  it('refuses a duplicate name in the domain with Keystone 409', async () => {
    const res = await asAdmin('POST', '/projects', { project: { name: 'alpha', domain_id: 'default' } });
    expect(res.status).toBe(409);
    expect(res.body.error.title).toBe('Conflict');
    expect(res.body.error.message).toMatch(
      /^Conflict occurred attempting to store project - it is not permitted to have two projects with either the same name or same id in the same domain: name is alpha, project id [0-9a-f]{32}\.$/,
    );
  });

  it('validates the body with Keystone schema errors', async () => {
    const noName = await asAdmin('POST', '/projects', { project: { description: 'x' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(
      /^'name' is a required property\n\nFailed validating 'required' in schema:/,
    );
    const noBody = await http(tc, 'POST', '/identity/v3/projects', { token: admin.token });
    expect(noBody.body.error.message).toMatch(/^'name' is a required property/);
    expectKeystoneError(
      await asAdmin('POST', '/projects', { project: { name: 'x', enabled: 'yes' } }),
      400,
      "Invalid input for field 'enabled': 'yes' is not of type 'boolean'\n\n" +
        "Failed validating 'type' in schema['properties']['enabled']:\n" +
        "    {'enum': [True, False], 'type': 'boolean'}\n\nOn instance['enabled']:\n    'yes'",
    );
    expectKeystoneError(
      await asAdmin('POST', '/projects', { project: { name: 'x', domain_id: 'nosuchdomain' } }),
      400,
      'Could not find domain: nosuchdomain.',
    );
    const malformed = await http(tc, 'POST', '/identity/v3/projects', {
      token: admin.token,
      rawBody: '{nope',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/^Expecting to find valid JSON in request body\./);
  });

  it('updates a project with PATCH and refuses forbidden changes', async () => {
    const created = await asAdmin('POST', '/projects', { project: { name: 'gamma' } });
    const id = created.body.project.id;
    const res = await asAdmin('PATCH', `/projects/${id}`, {
      project: { description: 'changed', name: 'gamma2' },
    });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ id, name: 'gamma2', description: 'changed', enabled: true });
    expectKeystoneError(
      await asAdmin('PATCH', `/projects/${id}`, { project: { name: 'alpha' } }),
      409,
      'Conflict occurred attempting to store project - Duplicate entry found with name alpha.',
    );
    expectKeystoneError(
      await asAdmin('PATCH', `/projects/${id}`, { project: { parent_id: admin.projectId } }),
      403,
      'Update of `parent_id` is not allowed.',
    );
    expectKeystoneError(
      await asAdmin('PATCH', `/projects/${id}`, { project: { domain_id: 'elsewhere' } }),
      400,
      'Cannot change Domain ID',
    );
    expectKeystoneError(
      await asAdmin('PATCH', `/projects/${id}`, { project: { id: 'other' } }),
      400,
      'Cannot change ID',
    );
    const empty = await asAdmin('PATCH', `/projects/${id}`, { project: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/^\{\} does not have enough properties/);
    expectKeystoneError(
      await asAdmin('PATCH', '/projects/nosuch', { project: { description: 'x' } }),
      404,
      'Could not find project: nosuch.',
    );
  });

  it('deletes a project (204), then 404 with Keystone message', async () => {
    const created = await asAdmin('POST', '/projects', { project: { name: 'delta' } });
    const id = created.body.project.id;
    const del = await asAdmin('DELETE', `/projects/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectKeystoneError(await asAdmin('GET', `/projects/${id}`), 404, `Could not find project: ${id}.`);
    expectKeystoneError(await asAdmin('DELETE', `/projects/${id}`), 404, `Could not find project: ${id}.`);
  });

  it('keeps a parent while it has children', async () => {
    const parent = await asAdmin('POST', '/projects', { project: { name: 'parent' } });
    const pid = parent.body.project.id;
    const child = await asAdmin('POST', '/projects', { project: { name: 'child', parent_id: pid } });
    expect(child.status).toBe(201);
    expect(child.body.project.parent_id).toBe(pid);
    expect(
      (await asAdmin('GET', `/projects?parent_id=${pid}`)).body.projects.map((p: { name: string }) => p.name),
    ).toEqual(['child']);
    expectKeystoneError(
      await asAdmin('DELETE', `/projects/${pid}`),
      403,
      `Cannot delete the project ${pid} since it is not a leaf in the hierarchy. Use the cascade option if you want to delete a whole subtree.`,
    );
    expectKeystoneError(
      await asAdmin('PATCH', `/projects/${pid}`, { project: { enabled: false } }),
      403,
      `Cannot disable project ${pid} since its subtree contains enabled projects.`,
    );
    expectKeystoneError(
      await asAdmin('POST', '/projects', { project: { name: 'orphan', parent_id: 'nosuch' } }),
      400,
      'Could not find project: nosuch.',
    );
    expect((await asAdmin('DELETE', `/projects/${child.body.project.id}`)).status).toBe(204);
    expect((await asAdmin('DELETE', `/projects/${pid}`)).status).toBe(204);
  });

  it('lets a member read the project its token is scoped to, and nothing else (capture 85)', async () => {
    const own = await http(tc, 'GET', `/identity/v3/projects/${demo.projectId}`, { token: demo.token });
    expect(own.status).toBe(200);
    expect(own.body.project.name).toBe('demo');
    expectKeystoneError(
      await http(tc, 'GET', `/identity/v3/projects/${admin.projectId}`, { token: demo.token }),
      403,
      forbiddenMessage('get_project'),
    );
    // Keystone builds the target first: a missing project is a policy refusal for a member.
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/projects/nosuch', { token: demo.token }),
      403,
      forbiddenMessage('get_project'),
    );
    expectKeystoneError(
      await http(tc, 'GET', '/identity/v3/projects', { token: demo.token }),
      403,
      forbiddenMessage('list_projects'),
    );
  });

  it('disabling a project ends the tokens scoped to it', async () => {
    const created = await asAdmin('POST', '/projects', { project: { name: 'epsilon' } });
    const id = created.body.project.id;
    const roles = await asAdmin('GET', '/roles?name=member');
    await asAdmin('PUT', `/projects/${id}/users/${demo.userId}/roles/${roles.body.roles[0].id}`);
    const scoped = await login(tc, 'demo', { project: 'epsilon' });
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: scoped.token })).status).toBe(200);
    expect((await asAdmin('PATCH', `/projects/${id}`, { project: { enabled: false } })).status).toBe(200);
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: scoped.token })).status).toBe(401);
    // Re-enabling does not bring the revoked token back.
    expect((await asAdmin('PATCH', `/projects/${id}`, { project: { enabled: true } })).status).toBe(200);
    expect((await http(tc, 'GET', '/identity/v3/auth/projects', { token: scoped.token })).status).toBe(401);
    const list = await http(tc, 'GET', '/identity/v3/auth/projects', { token: demo.token });
    expect(list.body.projects.map((p: { name: string }) => p.name).sort()).toEqual(['demo', 'epsilon']);
  });
});
