import type { Request, Response } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { type Microversion, versionOf } from '../../platform/http/microversion.js';
import { type Caller, callerOf } from '../service/caller.js';
import { QueryParams } from '../service/paging.js';
import type { VolumeViewContext } from '../views/volume.view.js';

export const callerFor = (req: Request): Caller => callerOf(authOf(req.ctx));
export const versionFor = (req: Request): Microversion => versionOf(req.ctx);
export const queryOf = (req: Request): QueryParams => QueryParams.fromUrl(req.originalUrl);

export function viewContext(req: Request): VolumeViewContext {
  const caller = callerFor(req);
  return {
    baseUrl: baseUrl(req),
    projectId: caller.projectId,
    version: versionFor(req),
    isAdmin: caller.isAdmin,
  };
}

/** `/volume/v3/{project_id}` as the client reached it, for collection links. */
export const apiRoot = (req: Request): string => `${baseUrl(req)}/volume/v3/${callerFor(req).projectId}`;

/** A route parameter Express always sets for the routes that declare it. */
export const param = (req: Request, name: string): string =>
  String((req.params as Record<string, string>)[name]);

/**
 * An empty answer with the Content-Type Cinder sends: `application/json` for actions that return
 * None through the JSON serializer, webob's `text/html; charset=UTF-8` for bare webob.Response.
 */
export function sendEmpty(res: Response, status: number, contentType: 'json' | 'html'): void {
  res.status(status);
  res.setHeader('Content-Type', contentType === 'json' ? 'application/json' : 'text/html; charset=UTF-8');
  res.setHeader('Content-Length', '0');
  res.end();
}
