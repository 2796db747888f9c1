import type { Socket } from 'node:net';
import type { ApiErrorCode } from '@sv/shared';
import type { Logger } from './logger.js';

/**
 * Requests Node's HTTP parser refuses before Express sees them get the BFF's typed error JSON
 * (`{ error: { code, message } }`, as errors.ts renders), where Node would write a bare status
 * line: an address or headers past the 16 KB limit (in practice, an oversized cookie), a request
 * that takes too long to arrive, bytes that are not HTTP.
 */
interface Refusal {
  status: number;
  reason: string;
  code: ApiErrorCode;
  message: string;
}

function refusalFor(code: string | undefined): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'request_too_large',
      message: "The request's address or headers are too large.",
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      reason: 'Request Timeout',
      code: 'request_timeout',
      message: 'The request took too long to arrive.',
    };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'malformed_request',
    message: 'The request is not valid HTTP.',
  };
}

/** The server's `clientError` listener. */
export function clientErrorResponder(log: Logger) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = refusalFor(err.code);
    log.info({ code: err.code, status: refusal.status }, 'request refused before routing');
    const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
