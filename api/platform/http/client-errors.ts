/**
 * The answer to a connection whose request could not be read (headers late, or over Node's size
 * limit, or bytes that are not HTTP): the status alone, then the connection is closed. Fastify's
 * default handler adds a JSON body whatever the method, and a body after the answer to a HEAD
 * request (HEAD answers carry none) breaks the client's reading of the connection; the method is
 * not known when the request could not be read, so no answer here has a body, as in Node's own.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  socket.destroy(err);
}
