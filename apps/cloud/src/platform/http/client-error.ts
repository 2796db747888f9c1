import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { type FaultStyle, faultBody } from './faults.js';

/**
 * Requests Node's HTTP parser refuses before the app sees them (a request line or headers past
 * its 16 KB limit, bytes that are not HTTP) get an answer in the service's own fault format,
 * where Node would write a bare status line with no body.
 */

/** What Node's parser gives the `clientError` listener. */
export interface ClientError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

interface Refusal {
  status: number;
  reason: string;
  message: string;
}

/** eventlet answers a request line past its limit 414 (captures 422, 423). */
const URI_TOO_LONG: Refusal = {
  status: 414,
  reason: 'Request-URI Too Long',
  message: 'The request line is too long.',
};
const HEADERS_TOO_LARGE: Refusal = {
  status: 431,
  reason: 'Request Header Fields Too Large',
  message: 'The request headers are too large.',
};
const TIMEOUT: Refusal = {
  status: 408,
  reason: 'Request Timeout',
  message: 'The request took too long to arrive.',
};
const MALFORMED: Refusal = { status: 400, reason: 'Bad Request', message: 'The request is not valid HTTP.' };

/** A header line's start: a token, then a colon. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
/** A whole request line's start: a method, a space, then an origin, `*` or an absolute URL. */
const REQUEST_LINE_START = /^[A-Z]+ (?:\/|\*|https?:)/;
/** eventlet's MAX_REQUEST_LINE: past it Nova and Cinder answer 414. */
const MAX_REQUEST_LINE = 8192;

/**
 * Node reports a long request line and long headers alike (HPE_HEADER_OVERFLOW) and hands over
 * only the chunk it was reading. That chunk's first line tells them apart: a whole request line
 * of eventlet's limit or more, the tail of one (` HTTP/1.1` without a method before it) or a
 * line not even ended is the request line (414); a short request line or a header line means
 * the headers overflowed (431).
 */
export function overflowKind(raw: Buffer | undefined): 'request-line' | 'headers' {
  if (!raw) return 'request-line';
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n');
  const firstLine = end < 0 ? text : text.slice(0, end);
  if (end >= 0 && / HTTP\/\d\.\d$/.test(firstLine)) {
    const whole = REQUEST_LINE_START.test(firstLine);
    return !whole || firstLine.length >= MAX_REQUEST_LINE ? 'request-line' : 'headers';
  }
  return HEADER_NAME.test(firstLine) ? 'headers' : 'request-line';
}

function refusalFor(err: ClientError): Refusal {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return overflowKind(err.rawPacket) === 'headers' ? HEADERS_TOO_LARGE : URI_TOO_LONG;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return TIMEOUT;
  return MALFORMED;
}

/** Keystone's paths get its `{"error": ...}` body, everything else Nova's and Cinder's fault. */
function styleFor(raw: Buffer | undefined): FaultStyle {
  return raw && /^[A-Z]{1,16} \/identity(?:[/?\s]|$)/.test(raw.subarray(0, 64).toString('latin1'))
    ? 'keystone'
    : 'nova';
}

/** The server's `clientError` listener. */
export function clientErrorResponder(logger: Logger) {
  return (err: ClientError, socket: Socket): void => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = refusalFor(err);
    logger.info({ code: err.code, status: refusal.status }, 'request refused before routing');
    const body = JSON.stringify(faultBody(styleFor(err.rawPacket), refusal.status, refusal.message));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
