import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI3, OperationObject, ParameterObject, ReferenceObject, ResponseObject } from 'openapi-typescript';
import t from 'tap';
import { openapiDocument } from '../../src/openapi-document.js';
import { resources } from '../../src/resources/index.js';

const JSONAPI = 'application/vnd.api+json';
const ERROR_DOCUMENT = '#/components/schemas/ErrorDocument';
/** The logins and the refresh add `error` to their error documents (the web front end reads it). */
const AUTH_ERROR_DOCUMENT = '#/components/schemas/AuthErrorDocument';
const WITH_ERROR_MEMBER = ['/v1/auth/login', '/auth/session', '/v1/auth/token/refresh'];
/** Liveness and readiness (src/operations.ts): no parameters, no body, no token. */
const PROBES = ['GET /healthz', 'GET /readyz'];
const ASSISTANT_FAILURE = '#/components/schemas/AssistantFailure';
const APPGEN_FAILURE = '#/components/schemas/AppgenFailure';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const documentFile = new URL('../../openapi/openapi.json', import.meta.url);
const committed = await readFile(documentFile, 'utf8');
const doc = JSON.parse(committed) as OpenAPI3;

const isRef = (value: object): value is ReferenceObject => '$ref' in value;

/** A parameter or a response itself, or the one under components/parameters or components/responses it references. */
function deref<T extends ParameterObject | ResponseObject>(value: T | ReferenceObject): T {
  if (!isRef(value)) return value;
  const [, section, name] = /^#\/components\/(parameters|responses)\/([^/]+)$/.exec(value.$ref) ?? [];
  const target = (doc.components as Record<string, Record<string, T> | undefined> | undefined)?.[section!]?.[name!];
  if (!target || isRef(target)) throw new Error(`${value.$ref} names nothing`);
  return target;
}

/** The response an operation declares for `code`, itself or the shared one it references. */
const responseOf = (op: OperationObject, code: string) => {
  const response = op.responses?.[code];
  return response && deref(response);
};

interface Operation {
  label: string;
  path: string;
  op: OperationObject;
}

const operationsOf = (document: OpenAPI3): Operation[] =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    isRef(item)
      ? []
      : METHODS.flatMap((method) => {
          const op = item[method];
          return op && !isRef(op) ? [{ label: `${method.toUpperCase()} ${path}`, path, op }] : [];
        }),
  );
const operations = operationsOf(doc);

/** The event service's JSON:API face; the login routes under /v1/auth/ take and give plain JSON. */
/** Actions whose bodies and answers are plain JSON objects, not JSON:API documents. */
const PLAIN_ACTIONS = [
  '/v1/attendees/send-receipt',
  '/v1/upload/image',
  '/v1/events/{event_id}/export/json',
  '/v1/users/check_email',
  '/v1/role_invites/user',
  '/v1/role_invites/accept-invite',
  '/v1/role_invites/decline-invite',
  '/v1/role-invites/{id}/resend-invite',
  '/v1/orders/{identifier}/verify',
  // The checkout of the front end posts plain JSON (create-order answers the new order as a JSON:API document).
  '/v1/orders/calculate-amount',
  '/v1/orders/create-order',
  // The door's scan: what a ticket's QR code holds in, what happened out (201: the check-in it made).
  '/v1/stations/{station_id}/scan',
];
/** File uploads: multipart forms in (the component named here), plain JSON out. */
const UPLOADS: Record<string, string> = {
  '/v1/upload/file': 'UploadRequest',
  '/v1/upload/files': 'UploadRequest',
  '/v1/events/import/{source_type}': 'ImportRequest',
};
/** Plain JSON or files out, no body in (the Open Event front end's loader reads the session routes as plain JSON). */
const PLAIN_READS = [
  '/v1/tasks/{task_id}',
  '/v1/events/{event_id}/exports/{path}',
  '/v1/sessions/states',
  '/v1/sessions/mails',
  '/v1/events/{id}/sessions/languages',
  '/v1/events/{id}/sessions/dates',
  '/v1/events/{id}/tickets/availability',
  '/v1/states',
  '/v1/events/{id}/has-streams',
  '/v1/speaker-invites/{id}/accept-invite',
  '/v1/speaker-invites/{id}/reject-invite',
  '/v1/users/user-details/get-user-id',
  '/v1/badge-forms/print-badge-pdf',
  // The fields of a ticket's badge, as the reference's custom route answers them.
  '/v1/tickets/{ticket_id}/badge-forms',
  // The door's figures of the day and its search box, as the reference's custom routes answer them.
  '/v1/user-check-in/stats/event/{event_id}',
  '/v1/events/{event_id}/attendees/search',
];
/** The tickets and the invoice of an order as PDF (src/resources/orders/documents), downloaded by the front end's loader. */
const PDF_DOWNLOADS = [
  '/v1/orders/{identifier}/tickets-pdf',
  '/v1/tickets/{order_identifier}',
  '/v1/orders/attendees/{attendee_id}.pdf',
  '/v1/orders/invoices/{identifier}',
];
/** Zip archives downloaded by the front end's loader: the translation files (src/site/translations). */
const ZIP_DOWNLOADS = ['/v1/admin/content/translations/all/'];
/** The schedule for conference apps and calendars (src/schedule), by the media type each answers. */
const SCHEDULE_DOCUMENTS: Record<string, string> = {
  '/v1/events/{id}/schedule.xml': 'application/vnd.c3voc.schedule+xml',
  '/v1/events/{id}/schedule.json': 'application/json',
  '/v1/events/{id}/schedule.ics': 'text/calendar',
  '/v1/events/{id}/schedule.xcal': 'application/calendar+xml',
  '/v1/sessions/{id}/session.ics': 'text/calendar',
};
/**
 * The exports of the schedule, the CSV and PDF files and the badges: started by GET (the front end) or POST, a task in
 * plain JSON.
 */
const EXPORT_STARTS = [
  'ical',
  'xcal',
  'pentabarf',
  ...['sessions', 'speakers', 'orders', 'attendees'].flatMap((kind) => [`${kind}/csv`, `${kind}/pdf`]),
  'badges/pdf',
].map((path) => `/v1/events/{event_id}/export/${path}`);
/** The exports whose POST takes a plain JSON body (a status filter, the badges' options). */
const EXPORT_BODIES = ['sessions/csv', 'speakers/csv', 'sessions/pdf', 'speakers/pdf', 'badges/pdf'].map(
  (path) => `POST /v1/events/{event_id}/export/${path}`,
);
const isJsonApi = (path: string) =>
  path.startsWith('/v1/') &&
  !path.startsWith('/v1/auth/') &&
  !PLAIN_ACTIONS.includes(path) &&
  !(path in UPLOADS) &&
  !PLAIN_READS.includes(path) &&
  !PDF_DOWNLOADS.includes(path) &&
  !ZIP_DOWNLOADS.includes(path) &&
  !(path in SCHEDULE_DOCUMENTS) &&
  !EXPORT_STARTS.includes(path);

/** Every object reachable from `root` (each visited once, so cycles end). */
function* objectsIn(root: unknown, seen = new Set<object>()): Generator<Record<string, unknown>> {
  if (typeof root !== 'object' || root === null || seen.has(root)) return;
  seen.add(root);
  if (!Array.isArray(root)) yield root as Record<string, unknown>;
  for (const value of Object.values(root)) yield* objectsIn(value, seen);
}

/**
 * A video stream's `password` is its meeting's, shown to the event's organizers (open-event-frontend:
 * app/models/video-stream.ts:31), not an account's.
 */
const isMeetingPassword = (schema: Record<string, unknown>) =>
  String(schema.description ?? '').startsWith('password of the meeting;');

/** The account `password` property schemas anywhere under `root`. */
const passwordProperties = (root: unknown) =>
  [...objectsIn(root)].flatMap((s) => {
    const props = s.properties as Record<string, Record<string, unknown>> | undefined;
    return props && typeof props === 'object' && 'password' in props && !isMeetingPassword(props.password!)
      ? [props.password!]
      : [];
  });

t.test('openapi/openapi.json is what the app produces', async (t) => {
  const produced = await openapiDocument();
  t.ok(produced === committed, 'openapi/openapi.json is stale: run `make openapi` and commit the result');
  t.same(JSON.parse(produced), doc, 'the difference');
});

t.test('the committed document is a valid OpenAPI 3.1 document', async (t) => {
  t.equal(doc.openapi, '3.1.0');
  await t.resolves(SwaggerParser.validate(fileURLToPath(documentFile)), 'swagger-parser validates it');
});

t.test('every operation is identified, tagged, described and lists its errors', async (t) => {
  t.ok(operations.length > 0, 'the document has operations');
  const declaredTags = new Set((doc.tags ?? []).map((tag) => tag.name));
  for (const tag of doc.tags ?? []) t.ok(tag.description, `tag ${tag.name} has a description`);
  const ids = operations.map(({ op }) => op.operationId);
  t.same([...new Set(ids)], ids, 'operationIds are unique');
  for (const { label, op } of operations) {
    t.match(op.operationId, /^[a-z][A-Za-z0-9]+$/, `${label} has an operationId`);
    t.ok(op.tags && op.tags.length > 0, `${label} has tags`);
    for (const tag of op.tags ?? []) t.ok(declaredTags.has(tag), `${label}: tag ${tag} is declared at the top level`);
    t.ok(op.summary || op.description, `${label} has a summary or description`);
    for (const param of (op.parameters ?? []).map(deref)) {
      t.ok(param.description, `${label}: parameter ${param.name} is described`);
      // A deepObject parameter (`fields`) stands for one query parameter per key (`fields[event]`).
      const { properties = {} } = (param.schema ?? {}) as { properties?: Record<string, { description?: string }> };
      for (const [key, schema] of param.style === 'deepObject' ? Object.entries(properties) : [])
        t.ok(schema.description, `${label}: parameter ${param.name}[${key}] is described`);
    }
    const responses = Object.entries(op.responses ?? {});
    const errors = responses.filter(([code]) => /^[45]\d\d$/.test(code));
    // The probes take no input at all: nothing a client sends can be wrong.
    if (!PROBES.includes(label))
      t.ok(
        errors.some(([code]) => code.startsWith('4')),
        `${label} lists a 4xx error response`,
      );
    for (const [code, response] of responses) {
      const { description } = deref(response);
      t.ok(description && description !== 'Default Response', `${label} ${code} is described`);
    }
    // The error handler answers every failure as a JSON:API error document, whatever the route; the
    // assistant face answers `{"accepted": false, "message"}` (with `callback`, the same object as a
    // JSONP script) and the app generator `{"status": "error", "code", "message"}` as plain JSON.
    const ok = op.responses?.['200'] && deref(op.responses['200']);
    const answersJson = !!ok && 'application/json' in (ok.content ?? {});
    const [type, schema, types] = op.tags?.includes('assistant')
      ? [
          'application/json',
          ASSISTANT_FAILURE,
          answersJson ? ['application/json', 'application/javascript'] : undefined,
        ]
      : op.tags?.includes('App generator')
        ? ['application/json', APPGEN_FAILURE]
        : [JSONAPI, WITH_ERROR_MEMBER.includes(label.split(' ')[1]!) ? AUTH_ERROR_DOCUMENT : ERROR_DOCUMENT];
    for (const [code, response] of errors) {
      const { content } = deref(response);
      t.same(
        Object.keys(content ?? {}),
        types ?? [type],
        `${label} ${code} is sent as ${(types ?? [type]).join(' or ')}`,
      );
      t.same(content?.[type]?.schema, { $ref: schema }, `${label} ${code} is ${schema}`);
    }
  }
});

t.test('what several operations declare alike is declared once, under components', async (t) => {
  const seen = new Map<string, string>();
  const once = (label: string, what: string, value: object) => {
    if (isRef(value)) return;
    const text = `${what} ${JSON.stringify(value)}`;
    const first = seen.get(text);
    if (first) t.fail(`${label} repeats ${what} of ${first}`);
    else seen.set(text, label);
  };
  for (const { label, op } of operations) {
    for (const param of op.parameters ?? []) {
      once(label, 'a parameter', param);
      // `fields[event]` and `page[size]` are keys of the deepObject parameters `fields` and `page`.
      t.notMatch(deref(param).name, /\[/, `${label}: ${deref(param).name} is not a bracketed name`);
    }
    for (const [code, response] of Object.entries(op.responses ?? {}))
      if (!code.startsWith('2')) once(label, `its ${code}`, response);
  }
  const { parameters = {}, responses = {} } = doc.components ?? {};
  for (const name of Object.keys(responses))
    t.match(name, /^[A-Z][A-Za-z0-9]+$/, `${name} is named after its status or its body's schema`);
  t.ok(parameters.fields && parameters.page && responses.NotFound, 'fields, page and NotFound are shared');
});

t.test('JSON:API operations take and give application/vnd.api+json only', async (t) => {
  const jsonapi = operations.filter(({ path }) => isJsonApi(path));
  t.ok(jsonapi.length > 0, 'there are JSON:API operations');
  for (const { label, op } of jsonapi) {
    for (const [code, response] of Object.entries(op.responses ?? {})) {
      // 304 Not Modified has no body.
      const types = Object.keys(deref(response).content ?? {});
      t.same(types, code === '304' ? [] : [JSONAPI], `${label} ${code} content`);
    }
    if (op.requestBody) {
      const body = op.requestBody;
      t.same(isRef(body) ? body.$ref : Object.keys(body.content), [JSONAPI], `${label} request body content`);
    }
  }
  const plain = operations.filter(
    ({ path }) => !isJsonApi(path) && (path.includes('/auth/') || PLAIN_ACTIONS.includes(path)),
  );
  t.same(
    plain.map((o) => o.label).sort(),
    [
      'PATCH /v1/auth/reset-password',
      'POST /auth/session',
      'POST /v1/attendees/send-receipt',
      'POST /v1/auth/change-password',
      'POST /v1/auth/login',
      'POST /v1/auth/logout',
      'POST /v1/auth/resend-verification-email',
      'POST /v1/auth/reset-password',
      'POST /v1/auth/token/refresh',
      'POST /v1/auth/verify-email',
      'POST /v1/events/{event_id}/export/json',
      'POST /v1/upload/image',
      'POST /v1/users/check_email',
      'POST /v1/role_invites/user',
      'POST /v1/role_invites/accept-invite',
      'POST /v1/role_invites/decline-invite',
      'POST /v1/role-invites/{id}/resend-invite',
      'POST /v1/orders/{identifier}/verify',
      'POST /v1/orders/calculate-amount',
      'POST /v1/orders/create-order',
      'POST /v1/auth/oauth/login/{provider}',
      'POST /v1/stations/{station_id}/scan',
    ].sort(),
    'the logins, the refresh, logout and the account flows, send-receipt, the image upload, the export, check_email, the role invite actions, the order payment check, the checkout and the scan',
  );
  const uploads = operations.filter(({ path }) => path in UPLOADS);
  t.equal(uploads.length, 3, 'the upload, its alias and the import');
  for (const { label, op, path } of [...plain, ...uploads]) {
    const body = op.requestBody;
    if (path in UPLOADS) {
      const form = { 'multipart/form-data': { schema: { $ref: `#/components/schemas/${UPLOADS[path]}` } } };
      t.same(body && !isRef(body) ? body.content : undefined, form, `${label} takes a multipart form`);
    } else if (path === '/v1/auth/oauth/login/{provider}') {
      // No OAuth provider is configured: it only ever refuses.
      t.notOk(body, `${label} takes no body (the code is a query parameter)`);
      t.notOk(responseOf(op, '200'), `${label} never answers 200`);
      continue;
    } else if (path === '/v1/role-invites/{id}/resend-invite' || path === '/v1/orders/{identifier}/verify') {
      t.notOk(body, `${label} takes no body (the front end's loader posts none)`);
    } else {
      t.ok(body && !isRef(body) && 'application/json' in body.content, `${label} takes plain JSON`);
    }
    if (path === '/v1/orders/create-order')
      t.same(Object.keys(responseOf(op, '200')?.content ?? {}), [JSONAPI], `${label} answers the order as JSON:API`);
    else if (path === '/v1/stations/{station_id}/scan')
      t.same(Object.keys(responseOf(op, '201')?.content ?? {}), ['application/json'], `${label} answers plain JSON`);
    else t.same(Object.keys(responseOf(op, '200')?.content ?? {}), ['application/json'], `${label} answers plain JSON`);
  }
  const reads = operations.filter(({ path }) => PLAIN_READS.includes(path));
  t.same(
    reads.map((r) => r.label).sort(),
    [
      'GET /v1/events/{event_id}/exports/{path}',
      'GET /v1/events/{id}/has-streams',
      'GET /v1/events/{id}/sessions/dates',
      'GET /v1/events/{id}/sessions/languages',
      'GET /v1/events/{id}/tickets/availability',
      'GET /v1/sessions/mails',
      'GET /v1/sessions/states',
      'GET /v1/speaker-invites/{id}/accept-invite',
      'GET /v1/speaker-invites/{id}/reject-invite',
      'GET /v1/states',
      'GET /v1/tasks/{task_id}',
      'GET /v1/users/user-details/get-user-id',
      'GET /v1/badge-forms/print-badge-pdf',
      'GET /v1/tickets/{ticket_id}/badge-forms',
      'GET /v1/user-check-in/stats/event/{event_id}',
      'GET /v1/events/{event_id}/attendees/search',
    ].sort(),
    "the task, the download, the front end loader's session states, mails, languages and dates, ticket availability, has-streams and speaker invite answers, the check-in apps' attendee state, the caller's user id, the badge print's task, a ticket's badge fields, and the door's figures and search",
  );
  for (const { label, op } of reads) {
    const types = Object.keys(responseOf(op, '200')?.content ?? {});
    t.same(
      types,
      label.includes('exports')
        ? [
            'application/zip',
            'text/csv',
            'application/pdf',
            'text/calendar',
            'application/calendar+xml',
            'application/vnd.c3voc.schedule+xml',
          ]
        : ['application/json'],
      `${label} answers ${types.join()}`,
    );
  }
  const pdfs = operations.filter(({ path }) => PDF_DOWNLOADS.includes(path));
  t.same(pdfs.map((r) => r.label).sort(), PDF_DOWNLOADS.map((path) => `GET ${path}`).sort(), 'the PDF downloads');
  for (const { label, op } of pdfs) {
    t.same(Object.keys(responseOf(op, '200')?.content ?? {}), ['application/pdf'], `${label} answers a PDF`);
    t.notOk(op.requestBody, `${label} takes no body`);
  }
  const zips = operations.filter(({ path }) => ZIP_DOWNLOADS.includes(path));
  t.same(zips.map((r) => r.label).sort(), ZIP_DOWNLOADS.map((path) => `GET ${path}`).sort(), 'the zip downloads');
  for (const { label, op } of zips) {
    t.same(Object.keys(responseOf(op, '200')?.content ?? {}), ['application/zip'], `${label} answers a zip`);
    t.notOk(op.requestBody, `${label} takes no body`);
  }
  const documents = operations.filter(({ path }) => path in SCHEDULE_DOCUMENTS);
  t.equal(documents.length, 5, 'the four schedule documents and a session as iCalendar');
  for (const { label, op, path } of documents) {
    t.same(
      Object.keys(responseOf(op, '200')?.content ?? {}),
      [SCHEDULE_DOCUMENTS[path]],
      `${label} answers its format`,
    );
    t.notOk(op.requestBody, `${label} takes no body`);
  }
  const starts = operations.filter(({ path }) => EXPORT_STARTS.includes(path));
  t.equal(starts.length, 24, 'each export started by GET and by POST');
  for (const { label, op } of starts) {
    t.same(Object.keys(responseOf(op, '200')?.content ?? {}), ['application/json'], `${label} answers plain JSON`);
    const body = op.requestBody;
    if (EXPORT_BODIES.includes(label))
      t.ok(body && !isRef(body) && 'application/json' in body.content, `${label} takes plain JSON`);
    else t.notOk(body, `${label} takes no body`);
  }
});

t.test(
  "the app generator takes JSON (under any of its callers' media types) or forms and gives plain JSON; other methods are documented 405s",
  async (t) => {
    const face = operations.filter(({ path }) => path === '/api/api.php');
    t.same(
      face.map((o) => o.label).sort(),
      ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'].map((m) => `${m} /api/api.php`),
    );
    const post = face.find((o) => o.label.startsWith('POST'))?.op;
    const body = post?.requestBody;
    const request = { schema: { $ref: '#/components/schemas/AppRequest' } };
    t.same(body && !isRef(body) ? body.content : undefined, {
      'application/json': request,
      'text/plain': request,
      'application/x-www-form-urlencoded': request,
      'multipart/form-data': request,
    });
    t.same(post && responseOf(post, '202')?.content, {
      'application/json': { schema: { $ref: '#/components/schemas/AppStarted' } },
    });
    for (const { label, op } of face.filter((o) => !o.label.startsWith('POST'))) {
      t.same(Object.keys(op.responses ?? {}), ['405'], `${label} answers 405 only`);
    }
  },
);

t.test('every GET answering JSON, an image or a schedule document documents 304; nothing else does', async (t) => {
  for (const { label, op, path } of operations) {
    const json =
      path in SCHEDULE_DOCUMENTS ||
      Object.keys(responseOf(op, '200')?.content ?? {}).some(
        (type) => type.endsWith('json') || type.startsWith('image/'),
      );
    const documented = '304' in (op.responses ?? {});
    t.equal(
      documented,
      label.startsWith('GET ') && json,
      `${label} ${documented ? 'documents' : 'does not document'} 304`,
    );
  }
});

t.test('components are named after resources, never def-<n>', async (t) => {
  const names = Object.keys(doc.components?.schemas ?? {});
  for (const name of names) {
    t.notMatch(name, /^def-\d+$/, `${name} is not an anonymous def-<n>`);
    t.match(name, /^[A-Z][A-Za-z0-9]*$/, `${name} is PascalCase`);
  }
  for (const shared of ['ErrorDocument', 'ErrorObject', 'JsonApiVersion', 'ListLinks', 'ListMeta', 'DeleteDocument']) {
    t.ok(names.includes(shared), `shared component ${shared}`);
  }
  const schemaOf = (path: string, method: (typeof METHODS)[number], code?: string) => {
    const item = doc.paths?.[path];
    const op = item && !isRef(item) ? item[method] : undefined;
    if (!op || isRef(op)) return undefined;
    if (code === undefined) {
      const body = op.requestBody;
      return body && !isRef(body) ? body.content[JSONAPI] : undefined;
    }
    return responseOf(op, code)?.content?.[JSONAPI];
  };
  const ref = (name: string) => ({ schema: { $ref: `#/components/schemas/${name}` } });
  for (const { name, path, routes } of resources) {
    for (const suffix of ['Attributes', 'Resource', 'Document', 'ListDocument', 'CreateRequest', 'UpdateRequest']) {
      t.ok(names.includes(`${name}${suffix}`), `component ${name}${suffix}`);
    }
    const base = `/v1/${path}`;
    // Computed records (statistics, reports) have fewer routes of their own: none, the list, or the reads.
    if (routes === 'none') {
      t.notOk(doc.paths?.[base], `${path} has no routes of its own`);
      continue;
    }
    t.same(schemaOf(base, 'get', '200'), ref(`${name}ListDocument`), `list ${path} answers a ${name}ListDocument`);
    if (routes === 'read')
      t.same(schemaOf(`${base}/{id}`, 'get', '200'), ref(`${name}Document`), `get answers a ${name}Document`);
    if (routes) {
      t.notOk(schemaOf(base, 'post'), `nobody creates a ${name}`);
      continue;
    }
    t.same(schemaOf(base, 'post'), ref(`${name}CreateRequest`), `create takes a ${name}CreateRequest`);
    t.same(schemaOf(base, 'post', '201'), ref(`${name}Document`), `create answers a ${name}Document`);
    const created = doc.paths?.[base];
    const post = created && !isRef(created) && created.post && !isRef(created.post) ? created.post : undefined;
    t.ok(post && responseOf(post, '201')?.headers?.Location, `create documents its Location header`);
    t.same(schemaOf(`${base}/{id}`, 'get', '200'), ref(`${name}Document`), `get answers a ${name}Document`);
    t.same(schemaOf(`${base}/{id}`, 'patch'), ref(`${name}UpdateRequest`), `update takes a ${name}UpdateRequest`);
    t.same(schemaOf(`${base}/{id}`, 'patch', '200'), ref(`${name}Document`), `update answers a ${name}Document`);
    t.same(schemaOf(`${base}/{id}`, 'delete', '200'), ref('DeleteDocument'), `delete answers a DeleteDocument`);
  }
});

t.test('password is write-only: in requests, never in responses', async (t) => {
  const dereferenced: unknown = await SwaggerParser.dereference(fileURLToPath(documentFile));
  const deref = dereferenced as OpenAPI3;
  let inRequests = 0;
  for (const { label, op } of operationsOf(deref)) {
    for (const [code, response] of Object.entries(op.responses ?? {})) {
      t.same(passwordProperties(response), [], `${label} ${code} never shows a password`);
    }
    for (const password of passwordProperties(op.requestBody)) {
      inRequests++;
      t.equal(password.writeOnly, true, `${label}: password is writeOnly in the request`);
    }
  }
  t.ok(inRequests >= 3, 'register, update and log in all take a password');
  const components = deref.components?.schemas ?? {};
  t.same(passwordProperties(components.UserAttributes), [], 'UserAttributes has no password');
  t.same(passwordProperties(components.UserResource), [], 'UserResource has no password');
  for (const name of ['UserCreateRequest', 'UserUpdateRequest']) {
    const found = passwordProperties(components[name]);
    t.equal(found.length, 1, `${name} takes a password`);
    t.equal(found[0]?.writeOnly, true, `${name}: password is writeOnly`);
  }
});
