/** One operation of the BFF's OpenAPI document, in the route table's own terms. */
export interface DocumentedRoute {
  /** `METHOD /api/path/:param`, as the route table declares it. */
  key: string;
  method: string;
  /** Express syntax: `/api/volumes/:id`. */
  path: string;
  /** Needs a signed-in session (its security names the session cookie). */
  session: boolean;
}

interface Operation {
  security?: Record<string, unknown>[];
}

/** The routes GET /api/openapi.json documents: the route table, as the world sees it. */
export function documentedRoutes(doc: {
  paths: Record<string, Record<string, Operation>>;
}): DocumentedRoute[] {
  return Object.entries(doc.paths).flatMap(([openApiPath, operations]) =>
    Object.entries(operations).map(([method, op]) => {
      const path = openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
      return {
        key: `${method.toUpperCase()} ${path}`,
        method,
        path,
        session: (op.security ?? []).some((s) => 'session' in s),
      };
    }),
  );
}
