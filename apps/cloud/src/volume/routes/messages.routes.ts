import { type Request, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { notFound, WEBOB_NOT_FOUND } from '../../platform/http/errors.js';
import { cinderTime } from '../../platform/time.js';
import type { MessagesService } from '../service/messages.service.js';
import type { VolumeMessageRow } from '../store/messages.store.js';
import { nextLink } from '../service/paging.js';
import { apiRoot, callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/** views/messages.py: the message with its self and bookmark links under the caller's project. */
function messageView(req: Request, m: VolumeMessageRow) {
  const projectId = callerFor(req).projectId;
  const root = `${baseUrl(req)}/volume`;
  return {
    id: m.id,
    event_id: m.event_id,
    user_message: m.user_message,
    message_level: m.message_level,
    created_at: cinderTime(m.created_at),
    guaranteed_until: cinderTime(m.expires_at),
    request_id: m.request_id,
    links: [
      { rel: 'self', href: `${root}/v3/${projectId}/messages/${m.id}` },
      { rel: 'bookmark', href: `${root}/${projectId}/messages/${m.id}` },
    ],
    resource_type: m.resource_type,
    resource_uuid: m.resource_uuid,
  };
}

/** GET /messages, GET and DELETE /messages/{id} (api/v3/messages.py), 3.3+. */
export function messagesRoutes(messages: MessagesService): Router {
  const router = Router({ mergeParams: true, strict: true });
  // Below 3.3 the messages resource does not exist (capture 805).
  router.use('/messages', (req, _res, next) => {
    next(versionFor(req).below('3.3') ? notFound(WEBOB_NOT_FOUND) : undefined);
  });

  router.get('/messages', async (req, res) => {
    const query = queryOf(req);
    const { rows, limit } = await messages.list(callerFor(req), query, versionFor(req));
    // From 3.5 a page as long as the limit links to the next one.
    const links = limit === null ? [] : nextLink(`${apiRoot(req)}/messages`, query, rows, limit);
    res.json({
      messages: rows.map((m) => messageView(req, m)),
      ...(links.length > 0 ? { messages_links: links } : {}),
    });
  });

  router.get('/messages/:messageId', async (req, res) => {
    res.json({ message: messageView(req, await messages.get(callerFor(req), param(req, 'messageId'))) });
  });

  router.delete('/messages/:messageId', async (req, res) => {
    await messages.remove(callerFor(req), param(req, 'messageId'));
    sendEmpty(res, 204, 'html');
  });

  return router;
}
