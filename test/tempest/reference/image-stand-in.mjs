#!/usr/bin/env node
// An image service stand-in for the reference cloud (development tool; no test runs it). The reference
// cloud has no Glance, and its Nova reaches Glance at [glance] api_servers = http://127.0.0.1:9292, so
// every server booted from an image fails there with 500 GlanceConnectionFailed. A real cloud with fake
// drivers has an image service, so while Tempest measures the reference this answers the few reads Nova
// makes (the image schema and GET /v2/images/{id}) for one public, active image: the bundled cloud's
// seeded cirros, with the same id, so one tempest.conf serves both clouds. Everything else is 404.
//   node test/tempest/reference/image-stand-in.mjs [port=9292] [image-id]
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 9292);
const imageId = process.argv[3] ?? '8ad7ac80-1c1d-5607-a7c8-f8111ac8399d';
const base = `http://127.0.0.1:${port}`;
const created = '2026-01-01T00:00:00Z';

const image = {
  id: imageId,
  name: 'cirros-0.6.2-x86_64-disk',
  status: 'active',
  visibility: 'public',
  protected: false,
  os_hidden: false,
  owner: null,
  checksum: 'c8fc807773e5354afe61636071771906',
  os_hash_algo: 'sha512',
  os_hash_value: null,
  size: 21430272,
  virtual_size: 117440512,
  min_disk: 0,
  min_ram: 0,
  disk_format: 'qcow2',
  container_format: 'bare',
  tags: [],
  hw_rng_model: 'virtio',
  created_at: created,
  updated_at: created,
  self: `/v2/images/${imageId}`,
  file: `/v2/images/${imageId}/file`,
  schema: '/v2/schemas/image',
};

// Nova keeps the schema's properties as the image's own fields and the rest as image properties.
const baseProperties = [
  'id',
  'name',
  'status',
  'visibility',
  'protected',
  'os_hidden',
  'owner',
  'checksum',
  'os_hash_algo',
  'os_hash_value',
  'size',
  'virtual_size',
  'min_disk',
  'min_ram',
  'disk_format',
  'container_format',
  'tags',
  'created_at',
  'updated_at',
  'self',
  'file',
  'schema',
  'direct_url',
  'locations',
];
const schema = {
  name: 'image',
  properties: Object.fromEntries(baseProperties.map((name) => [name, {}])),
  additionalProperties: { type: 'string' },
  links: [],
};

function send(res, status, body) {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
  process.stderr.write(`${new Date().toISOString()} ${req.method} ${req.url}\n`);
  if (req.method !== 'GET') return send(res, 404, { message: 'image stand-in: read only' });
  if (path === '' || path === '/versions') {
    return send(res, 200, {
      versions: [{ id: 'v2.16', status: 'CURRENT', links: [{ rel: 'self', href: `${base}/v2/` }] }],
    });
  }
  if (path === '/v2/schemas/image') return send(res, 200, schema);
  if (path === '/v2/images')
    return send(res, 200, { images: [image], first: '/v2/images', schema: '/v2/schemas/images' });
  if (path === `/v2/images/${imageId}`) return send(res, 200, image);
  return send(res, 404, { message: `image stand-in: ${path} not found` });
}).listen(port, '127.0.0.1', () => process.stderr.write(`image stand-in on ${base}, image ${imageId}\n`));
