import type { ApiRoute } from '../../platform/route-table.js';
import { rawRoute } from '../../platform/route-table.js';
import { buildOpenApi } from './openapi.document.js';

/** GET /api/openapi.json: generated from the route table (this route included), once, when first asked for. */
export function openapiRoutes(table: () => readonly ApiRoute[]): ApiRoute[] {
  let document: string | null = null;
  return [
    rawRoute({
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This document',
      tag: 'platform',
      session: 'optional',
      responses: { 200: { description: 'An OpenAPI 3.1 document' } },
      handler: ({ res }) => {
        document ??= JSON.stringify(buildOpenApi(table()));
        res.type('application/json').send(document);
      },
    }),
  ];
}
