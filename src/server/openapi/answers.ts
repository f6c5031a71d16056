/**
 * The answers of every operation, rewritten once over the whole document (@fastify/swagger's
 * `transformObject`), from the facts the route transform recorded (operations.ts) and the
 * operation's own parameters:
 *
 * - error answers per status, each a `$ref` to one shared response whose body is SPEC.md §8's
 *   `{ code, message, details? }` ({@link errorComponents}); which statuses, see {@link errorStatuses};
 * - binary answers under their real content types with `format: binary`: an operation whose
 *   `format` parameter offers PDF, CSV or XLSX (the report calls, bo/bi/explore), and an answer
 *   schema marked by routes/common.ts `documentAnswer` (receipts, safe counts, the ZIP);
 * - a 204 has no body.
 */
import { ERROR_CODES } from '../../contract/errors.ts';
import type { ApiRoute } from '../../contract/rights.ts';
import { DOCUMENT_HEADERS_KEY, DOCUMENTS_KEY } from '../routes/common.ts';
import { FACTS_KEY, type RouteFacts } from './operations.ts';

/** Media types of the report formats (reports/render/index.ts CONTENT_TYPES without charsets). */
export const FORMAT_MEDIA_TYPES: Record<string, string> = {
  JSON: 'application/json',
  PDF: 'application/pdf',
  CSV: 'text/csv',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A JSON Schema or OpenAPI object, as the walk reads it. */
type Json = Record<string, unknown>;

/** One error status: its shared response's name, what it means, and whether it says Retry-After. */
interface ErrorStatus {
  name: string;
  description: string;
  retryAfter?: boolean;
}

const ERROR_STATUSES: Record<string, ErrorStatus> = {
  '400': {
    name: 'BadRequest',
    description:
      'Invalid request: a parameter or body field refused (BadRequest with details.issues, InvalidText, ' +
      'UnknownParameter naming it, MissingClientHeader) or a SPEC.md §8 code of the call',
  },
  '401': {
    name: 'Unauthorized',
    description: 'No valid credentials or session (Unauthorized, badCredentials)',
  },
  '403': {
    name: 'Forbidden',
    description: "The session lacks the call's right, or `id` is not the caller's",
  },
  '404': { name: 'NotFound', description: 'What the call names does not exist or is outside the scope' },
  '409': { name: 'Conflict', description: 'The data is not in a state the call can act on' },
  '413': { name: 'PayloadTooLarge', description: 'The body exceeds 1 MiB (PayloadTooLarge)' },
  '415': { name: 'UnsupportedMediaType', description: 'The body has a content type the call does not read' },
  '422': {
    name: 'IdempotencyKeyReused',
    description: 'The Idempotency-Key was used for another request (IdempotencyKeyReused)',
  },
  '431': {
    name: 'HeadersTooLarge',
    description:
      "The request line and headers exceed the server's limit (16 KiB): BadRequest, answered before any route",
  },
  '429': {
    name: 'TooManyRequests',
    description: 'Too many attempts or calls (TooManyRequests); wait Retry-After seconds',
    retryAfter: true,
  },
  '500': { name: 'InternalError', description: 'An unexpected failure (InternalError, errorPdf); logged' },
  '502': { name: 'BadGateway', description: 'The mail server refused the message (ErreurEnvoiMail)' },
  '503': {
    name: 'ServiceUnavailable',
    description:
      'Busy: every PDF slot taken (ServerBusy, decision 0022) or the same Idempotency-Key still running ' +
      '(IdempotencyKeyInProgress); try again after Retry-After seconds',
    retryAfter: true,
  },
};

const NOT_FOUND = ['404'] as const;
const MAIL = ['404', '502'] as const;

/**
 * Statuses calls give beyond what their facts say, read from their domain code: a DomainError of
 * kind notFound (404: an unknown id, or `userNull`), conflict (409: InUse, LoginTaken,
 * LastAdministrator, SelfChange, AlreadyCountersigned, NoReportInState) or upstream (502:
 * ErreurEnvoiMail), or an ApiHttpError of that status. The fuzz suite fails on any status an
 * operation gives that the document does not list, so a new one cannot go unnoticed.
 */
const DOMAIN_STATUSES: Partial<Record<ApiRoute, readonly string[]>> = {
  'DELETE withCredentials/collab/deleteEvenementLocal': NOT_FOUND,
  'GET bo/documentsManager/readDocument': NOT_FOUND,
  'GET bo/favoris/remove': NOT_FOUND,
  'GET bo/getResultsData': ['409'],
  // A partner integration never saved (issue #29).
  'POST bo/integrations/runNow': NOT_FOUND,
  // Database operations (issue #30, decision 0039): another operation under way (409
  // DatabaseBusy); a backup file that is not there (404 BackupPathRefused).
  'GET bo/backupDataBase': ['409'],
  'GET bo/restoreDataBase': ['404', '409'],
  'GET bo/reindexationDataBase': ['409'],
  'GET bo/home/envoieMail': MAIL,
  'GET bo/home/envoieMailManquant': MAIL,
  'GET bo/infra/getUtilisateur': ['403', '404'],
  'GET bo/infra/removeMessage': NOT_FOUND,
  'GET bo/infra/removeProfil': ['404', '409'],
  'GET bo/infra/removeRegroupement': NOT_FOUND,
  'GET bo/infra/removeSociete': ['404', '409'],
  'GET bo/infra/removeUtilisateur': ['404', '409'],
  'GET bo/mails/outbox/message': NOT_FOUND,
  'GET bo/tickets/detail': NOT_FOUND,
  'GET coffre': NOT_FOUND,
  'GET exports/download': NOT_FOUND,
  'GET reinit/sendReinitMail': MAIL,
  'POST bo/documentsManager/updateDocument': NOT_FOUND,
  'POST bo/infra/newUtilisateur': ['409'],
  'POST bo/infra/saveMessage': NOT_FOUND,
  'POST bo/infra/saveProfile': ['404', '409'],
  'POST bo/infra/saveRegroupement': NOT_FOUND,
  'POST bo/infra/saveSite': NOT_FOUND,
  'POST bo/infra/saveSociete': NOT_FOUND,
  'POST bo/infra/saveUtilisateur': ['404', '409'],
  'POST fluxfin/contre_signe': ['404', '409'],
  'POST messages/dismiss': NOT_FOUND,
  'POST withCredentials/collab/changeEvenementLocal': NOT_FOUND,
  // Recurring report e-mails (issue #28): another owner's row is 404, a rule in use 409.
  'GET bo/recurrences/abonnements/envois': NOT_FOUND,
  'GET bo/recurrences/abonnements/preview': NOT_FOUND,
  'POST bo/recurrences/abonnements/remove': NOT_FOUND,
  'POST bo/recurrences/abonnements/save': NOT_FOUND,
  'POST bo/recurrences/abonnements/send': ['404', '409', '429', '502'],
  'POST bo/recurrences/destinataires/remove': NOT_FOUND,
  'POST bo/recurrences/destinataires/save': NOT_FOUND,
  'POST bo/recurrences/regles/remove': ['404', '409'],
  'POST bo/recurrences/regles/save': NOT_FOUND,
  'GET recurrences/desabonnement': NOT_FOUND,
  'GET recurrences/fichier': NOT_FOUND,
  'POST recurrences/desabonnement': NOT_FOUND,
  // Alerts (issue #28): another owner's alert, or a rule or recipient out of reach, is 404.
  'POST bo/recurrences/alertes/check': NOT_FOUND,
  'POST bo/recurrences/alertes/remove': NOT_FOUND,
  'POST bo/recurrences/alertes/save': NOT_FOUND,
  // The FEC (issue #29): an unknown company is 404.
  'GET bo/fec/export': NOT_FOUND,
  'GET bo/fec/plan': NOT_FOUND,
  'POST bo/fec/savePlan': NOT_FOUND,
  // FEC recurrences (issue #29): an unknown company, recurrence or kept file (or another company's).
  'GET bo/fec/recurrences': NOT_FOUND,
  'POST bo/fec/saveRecurrence': NOT_FOUND,
  'POST bo/fec/deleteRecurrence': NOT_FOUND,
  'POST bo/fec/runRecurrenceNow': NOT_FOUND,
  'GET bo/fec/files': NOT_FOUND,
  'GET bo/fec/file': NOT_FOUND,
  // The start-up (issue #30, decision record 0041): ended before every step is done is 409.
  'GET bo/miseEnRoute': ['409'],
};

/** The shared components: the §8 error body, the Retry-After header, one response per status. */
export function errorComponents(): { schemas: Json; headers: Json; responses: Json } {
  const responses: Json = {};
  for (const status of Object.values(ERROR_STATUSES)) {
    responses[status.name] = {
      description: status.description,
      ...(status.retryAfter
        ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } }
        : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
    };
  }
  return {
    schemas: {
      ApiError: {
        type: 'object',
        description:
          'Every error answer (SPEC.md §8): the client translates `code` (catalogue id error.<code>)',
        properties: {
          code: { type: 'string', enum: [...ERROR_CODES] },
          message: { type: 'string', description: 'an English hint for logs and developers' },
          details: { type: 'object', additionalProperties: true, description: 'machine-readable details' },
        },
        required: ['code', 'message'],
      },
    },
    headers: {
      RetryAfter: {
        description: 'seconds to wait before trying again',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    responses,
  };
}

/** The query or body parameter `name` of `operation`, as a JSON Schema, or undefined. */
function inputSchema(operation: Json, name: string): Json | undefined {
  const parameters = (operation.parameters ?? []) as Json[];
  const query = parameters.find((p) => p.in === 'query' && p.name === name);
  if (query) return query.schema as Json;
  const body = operation.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  const schema = body?.content?.['application/json']?.schema;
  return (schema?.properties as Record<string, Json> | undefined)?.[name];
}

/** The report formats `operation` offers in its `format` parameter (empty when it has none). */
export function formatsOf(operation: Json): string[] {
  const schema = inputSchema(operation, 'format');
  const values = (schema?.enum ?? []) as unknown[];
  return values.filter((v): v is string => typeof v === 'string' && v in FORMAT_MEDIA_TYPES);
}

/**
 * The error statuses `operation` can give, from its facts: 400 always (the edge and schema
 * checks), 431 always (headers too large, refused by the HTTP parser), 500 always; 401 when it takes credentials; 403 when it needs a right or checks that
 * `id` is the caller; 404 for a path parameter (an unknown one); 413 and 415 when it reads a
 * body; 422 and 503 for a write (Idempotency-Key); 429 when limited; 503 when it can render a
 * PDF (bounded, decision 0022); plus {@link DOMAIN_STATUSES}.
 */
export function errorStatuses(operation: Json, facts: RouteFacts): string[] {
  const parameters = (operation.parameters ?? []) as Json[];
  // 431: Node's HTTP parser refuses headers too large before any route (plugins/input-guard.ts).
  const statuses = new Set(['400', '431', '500', ...(DOMAIN_STATUSES[facts.key] ?? [])]);
  if (facts.credentials) statuses.add('401');
  if (facts.access === 'rights' || (facts.access === 'session' && inputSchema(operation, 'id'))) {
    statuses.add('403');
  }
  if (parameters.some((p) => p.in === 'path')) statuses.add('404');
  if (operation.requestBody) {
    statuses.add('413');
    statuses.add('415');
  }
  if (facts.write) {
    statuses.add('422');
    statuses.add('503');
  }
  if (facts.limited) statuses.add('429');
  if (formatsOf(operation).includes('PDF')) statuses.add('503');
  return [...statuses].sort();
}

/** Media types besides JSON that `operation`'s success answer `schema` may come in. */
function documentTypes(operation: Json, schema: Json | undefined): string[] {
  const marked = (schema?.[DOCUMENTS_KEY] ?? []) as string[];
  const byFormat = formatsOf(operation)
    .filter((f) => f !== 'JSON')
    .map((f) => FORMAT_MEDIA_TYPES[f]!);
  return [...new Set([...marked, ...byFormat])];
}

/**
 * The 2xx answer `response` with its binary media types added (`format: binary`); its JSON part
 * kept when the route can answer JSON (a `format` offering JSON, or a schema that is not the
 * bare placeholder of a document-only answer).
 */
function withDocuments(operation: Json, response: Json): Json {
  const content = (response.content ?? {}) as Record<string, { schema?: Json }>;
  const json = content['application/json']?.schema;
  const types = documentTypes(operation, json);
  if (types.length === 0) return response;
  const out: Record<string, unknown> = {};
  const declared = (json?.[DOCUMENT_HEADERS_KEY] ?? {}) as Record<string, string>;
  const headers = Object.fromEntries(
    Object.entries(declared).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );
  if (json) {
    const { [DOCUMENTS_KEY]: _marked, [DOCUMENT_HEADERS_KEY]: _headers, ...schema } = json;
    const formats = formatsOf(operation);
    const jsonToo =
      formats.length > 0 ? formats.includes('JSON') : Object.keys(schema).some((k) => k !== 'description');
    if (jsonToo) out['application/json'] = { schema };
  }
  for (const type of types) out[type] = { schema: { type: 'string', format: 'binary' } };
  return Object.keys(headers).length > 0
    ? { ...response, headers: { ...(response.headers as Json | undefined), ...headers }, content: out }
    : { ...response, content: out };
}

/** The answers of one operation rewritten (see the module comment); its facts key removed. */
export function rewriteAnswers(operation: Json): void {
  const facts = operation[FACTS_KEY] as RouteFacts | undefined;
  delete operation[FACTS_KEY];
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    if (status === '204') {
      const { content: _none, ...empty } = response;
      out[status] = empty;
    } else out[status] = withDocuments(operation, response);
  }
  if (facts) {
    for (const status of errorStatuses(operation, facts)) {
      out[status] = { $ref: `#/components/responses/${ERROR_STATUSES[status]!.name}` };
    }
  } else Object.assign(out, responses);
  operation.responses = out;
}
