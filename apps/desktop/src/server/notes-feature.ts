import { GLOBAL_SCOPE, type NoteStore } from '@macstats/app-runtime';
import { HttpError, readJsonBody, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** A scope name as the page sends it: `global` (the default), `discord-<channel>`, a chat's id. */
function scopeOf(value: unknown): string {
  if (value === undefined || value === null || value === '') return GLOBAL_SCOPE;
  if (typeof value !== 'string' || value.length > 200 || /[\u0000-\u001f]/.test(value)) {
    throw new HttpError(400, 'The scope must be a short line of text, such as "global" or "discord-123".');
  }
  return value.trim();
}

/**
 * MEMORY notes in the page: `GET /api/notes?scope=…` lists a scope's notes (the global scope by
 * default), `POST /api/notes` `{ scope?, text }` adds one with the same checks as the MEMORY
 * tool (a note that is a tool call or an order is refused with 400 and the tool's sentence), and
 * `DELETE /api/notes/<n>?scope=…` removes note n. The dashboard's user owns the machine, so it
 * may write the global scope. All behind the dashboard's token, Host and Origin checks.
 */
export function createNotesFeature(store: NoteStore): DashboardFeature {
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/notes$/,
        kind: 'read',
        async handle({ response, url }) {
          const scope = scopeOf(url.searchParams.get('scope'));
          sendJson(response, 200, { scope, notes: await store.list(scope) });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/notes$/,
        kind: 'write',
        async handle({ request, response }) {
          const body = await readJsonBody(request);
          const scope = scopeOf(body['scope']);
          if (typeof body['text'] !== 'string') throw new HttpError(400, 'Send the note as {"text": "…"}.');
          const outcome = await store.add(scope, body['text']);
          if ('refused' in outcome) throw new HttpError(400, outcome.refused);
          sendJson(response, 201, {
            scope,
            number: outcome.number,
            pruned: outcome.pruned,
            notes: await store.list(scope),
          });
        },
      },
      {
        method: 'DELETE',
        path: /^\/api\/notes\/(\d+)$/,
        kind: 'write',
        async handle({ response, url, params }) {
          const scope = scopeOf(url.searchParams.get('scope'));
          const number = Number(params[0]);
          const removed = await store.remove(scope, number);
          if (removed === undefined) throw new HttpError(404, `There is no note ${number} in "${scope}".`);
          sendJson(response, 200, { scope, removed, notes: await store.list(scope) });
        },
      },
    ],
  };
}
