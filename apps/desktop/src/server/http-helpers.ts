import type { IncomingMessage, ServerResponse } from 'node:http';
import { MacstatsError } from '@macstats/core';
import { SECURITY_HEADERS } from './security.js';

/** A request the client got wrong; answered with `status` and the message as one sentence. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}

/** An error saying a server the dashboard relies on cannot be reached or refused it (`DATABASE_UNREACHABLE`, say). */
export function isServerAway(error: unknown): boolean {
  return MacstatsError.isInstance(error) && error.unreachable;
}

/** Largest JSON body the API accepts (schedules and chat messages are small). */
export const MAX_BODY_BYTES = 256 * 1024;

/** Reads a JSON object body; a wrong type, bad JSON or oversized body is a 4xx `HttpError`. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'Send the request body as application/json.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Reads a string field; `required` fields that are missing or empty are a 400. */
export function stringField(body: Record<string, unknown>, name: string, required = true): string {
  const value = body[name];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && value.trim() === '')) {
    throw new HttpError(400, `The field "${name}" must be a non-empty string.`);
  }
  return value;
}

/** Sends a JSON response with the security headers. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** Sends a one-sentence plain-text answer (errors and refusals). */
export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Sends an error as JSON `{ error }` so the page can show it as it is. */
export function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: message });
}

/** Identifiers the API accepts in paths and bodies: letters, digits, `-` and `_`, up to 64. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks an identifier from the client, answering 400 when it is not one. */
export function checkId(value: string, what: string): string {
  if (!ID_PATTERN.test(value)) throw new HttpError(400, `The ${what} is not a valid identifier.`);
  return value;
}
