/**
 * The options of @fastify/swagger that make the OpenAPI document of the API (issue #17 item 11,
 * decision record 0023): info with licence, the server, the Basic scheme of SPEC.md §7, the
 * per-route transform (operations.ts) and one pass over the whole document (answers.ts,
 * formats.ts). Served at `/api/docs/json`; `scripts/openapi-dump.ts` writes it for
 * `redocly lint` in `npm test`.
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransformObject } from '@fastify/swagger';
import { APP_VERSION } from '../../contract/api.ts';
import { CACHE_BUSTER } from '../plugins/query-keys.ts';
import { errorComponents, rewriteAnswers } from './answers.ts';
import { annotateParameter, annotateSchema } from './formats.ts';
import { BASIC_SCHEME, operationTransform } from './operations.ts';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const cacheBuster = {
  in: 'query',
  name: CACHE_BUSTER,
  required: false,
  description: 'cache-busting timestamp (SPEC.md §7), accepted on every call and ignored',
  schema: { type: 'string', maxLength: 32 },
};

/**
 * One operation finished: answers, formats, and on GETs the `_` cache buster SPEC.md §7 lets every
 * call carry (lib/http.ts sends it on each GET; plugins/query-keys.ts accepts it everywhere).
 */
function finishOperation(method: string, operation: Json): void {
  rewriteAnswers(operation);
  const parameters = (operation.parameters ?? []) as Json[];
  for (const parameter of parameters) {
    annotateParameter(parameter);
    annotateSchema(parameter.schema);
  }
  if (method === 'get' && !parameters.some((p) => p.in === 'query' && p.name === CACHE_BUSTER)) {
    operation.parameters = [...parameters, { ...cacheBuster }];
  }
  annotateSchema(operation.requestBody);
  annotateSchema(operation.responses);
}

/** @fastify/swagger's `transformObject`: the whole-document pass (see the module comment). */
function finishDocument({ openapiObject }: { openapiObject: Json }): Json {
  const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) if (item[method]) finishOperation(method, item[method]);
  }
  const components = (openapiObject.components ?? {}) as Json;
  const errors = errorComponents();
  openapiObject.components = {
    ...components,
    schemas: { ...((components.schemas ?? {}) as Json), ...errors.schemas },
    headers: errors.headers,
    responses: errors.responses,
  };
  return openapiObject;
}

/** @fastify/swagger's options for the API's document. */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: {
        title: 'Comptoir API',
        description:
          'The API of SPEC.md §7: the back-office of restaurant and retail chains (reports, cash and safe ' +
          'counting, administration). Errors answer `{ code, message, details? }` (SPEC.md §8).',
        version: APP_VERSION,
        // package.json declares no licence and the repository has no LICENSE file: all rights reserved.
        license: { name: 'Proprietary' },
      },
      // Relative: the document is served by the very server it describes, paths under /api.
      servers: [{ url: '/', description: 'the Comptoir server serving this document' }],
      components: {
        securitySchemes: {
          [BASIC_SCHEME]: {
            type: 'http',
            scheme: 'basic',
            description: 'login:password at bo/connexion, then login:token',
          },
        },
      },
      security: [{ [BASIC_SCHEME]: [] }],
    },
    transform: operationTransform,
    transformObject: finishDocument as unknown as SwaggerTransformObject,
  };
}
