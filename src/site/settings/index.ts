import { Type, type TSchema } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { settings } from '../../../db/schema/index.js';
import { isStaff, requireStaff } from '../../auth/caller.js';
import {
  API_PREFIX,
  badRequest,
  compatibilityParameters,
  conflict,
  hasNul,
  ignoredListParameters,
  jsonapiMember as jsonapi,
  jsonObject,
  operation,
  Requiring,
  unprocessable,
} from '../../jsonapi/index.js';
import { ADMIN_FIELDS, columnOf, INPUT_FIELDS, PUBLIC_FIELDS, storedValue } from './fields.js';
import type { Config } from '../../config.js';
import { ALIASES } from './front-end-fields.js';

const TAG = 'Settings';
const SELF = `${API_PREFIX}/settings/1`;

/** Every attribute a caller may see, each optional: what `fields[setting]` answers, and what the full variant requires. */
const SettingAttributes = Type.Partial(
  Type.Object({ ...PUBLIC_FIELDS, ...ADMIN_FIELDS }, { additionalProperties: false }),
  { $id: 'SettingAttributes' },
);
const resourceSchema = ($id: string, attributes: TSchema, description: string) =>
  Type.Object(
    { type: Type.Literal('setting'), id: Type.Literal('1'), attributes, links: Type.Ref('ResourceLinks') },
    { $id, description },
  );
const SettingFull = resourceSchema(
  'SettingFull',
  Requiring('SettingAttributes', Object.keys({ ...PUBLIC_FIELDS, ...ADMIN_FIELDS })),
  'The full variant, for administrators and super administrators: every field, secrets included.',
);
const SettingLimited = resourceSchema(
  'SettingLimited',
  Type.Object(PUBLIC_FIELDS, { additionalProperties: false }),
  'The limited variant, for everyone else: public fields only.',
);
const SettingSparse = resourceSchema(
  'SettingSparse',
  Type.Ref(SettingAttributes),
  'The answer to `fields[setting]`: the named attributes the caller may see, any subset of a variant.',
);
const SettingDocument = Type.Object(
  {
    // anyOf: a sparse answer may also be a whole variant (`fields[setting]` naming every field).
    data: Type.Unsafe({ anyOf: [Type.Ref(SettingFull), Type.Ref(SettingLimited), Type.Ref(SettingSparse)] }),
    links: Type.Ref('ResourceLinks'),
    jsonapi: Type.Ref('JsonApiVersion'),
  },
  { $id: 'SettingDocument' },
);
const SettingUpdateRequest = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal('setting'),
        id: Type.String({ minLength: 1, maxLength: 64 }),
        attributes: Type.Partial(
          Type.Object({ ...PUBLIC_FIELDS, ...ADMIN_FIELDS, ...INPUT_FIELDS }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'SettingUpdateRequest', additionalProperties: false },
);

const SettingQuery = Type.Object(
  {
    ...compatibilityParameters,
    'fields[setting]': Type.Optional(
      Type.String({ maxLength: 2000, description: 'comma-separated attributes to return' }),
    ),
  },
  { additionalProperties: false },
);

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'any id: there is one record, id 1' }),
});

type Row = typeof settings.$inferSelect;

const ALL_FIELDS = [...Object.keys(PUBLIC_FIELDS), ...Object.keys(ADMIN_FIELDS)];

/** The attributes `fields[setting]` asks for (all without it); 400 for names the settings do not have. */
function sparse(request: FastifyRequest): Set<string> | undefined {
  const raw = (request.query as { 'fields[setting]'?: string } | undefined)?.['fields[setting]'];
  if (raw === undefined) return undefined;
  const names = raw.split(',').filter((n) => n !== '');
  const unknown = names.find((n) => !ALL_FIELDS.includes(n));
  if (unknown !== undefined) throw badRequest(`Unknown field "${unknown}" of setting`, 'fields[setting]');
  return new Set(names);
}

/** The attributes a caller may see: all for staff, the public ones for everyone else; `fields[setting]` narrows them. */
const visibleFields = (request: FastifyRequest, only: Set<string> | undefined) =>
  (isStaff(request.caller) ? ALL_FIELDS : Object.keys(PUBLIC_FIELDS)).filter((w) => !only || only.has(w));

/** The document a caller may see of `row` (the answer of a change). */
function documentFor(request: FastifyRequest, row: Row, only = sparse(request)) {
  const attributes = Object.fromEntries(visibleFields(request, only).map((w) => [w, row[columnOf(w) as keyof Row]]));
  return { data: { type: 'setting', id: '1', attributes, links: { self: SELF } }, links: { self: SELF }, jsonapi };
}

/** The document a caller may see, built by PostgreSQL in the one statement that reads the record. */
const DOCUMENT = `{"data":{"type":"setting","id":"1","attributes":%s,"links":{"self":"${SELF}"}},"links":{"self":"${SELF}"},"jsonapi":{"version":"1.0"}}`;
async function readDocument(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  const attributes = jsonObject(
    visibleFields(request, sparse(request)).map((w) => [
      w,
      settings[columnOf(w) as keyof typeof settings.$inferSelect],
    ]),
  );
  request.server.readCache?.depends(request, ['settings']);
  const [row] = await app.db.execute<{ doc: string }>(
    sql`select format(${DOCUMENT}, ${attributes}) as doc from ${settings} where ${settings.id} = 1`,
  );
  return row!.doc;
}

/**
 * Settings a service cannot run with: S3 or Google storage without a bucket and keys, SMTP without a
 * host, SendGrid without a key. The error names the member as the request spells the S3 settings (`aws-*` or `s3-*`).
 */
function checkComplete(row: Row, sent: string[]) {
  const needs = (when: boolean, wire: string, reason: string) => {
    if (!when || row[columnOf(wire) as keyof Row]) return;
    const usesAliases = sent.some((w) => w in ALIASES);
    const named = (usesAliases && Object.keys(ALIASES).find((alias) => ALIASES[alias] === wire)) || wire;
    throw unprocessable(`${named} is required when ${reason}`, `/data/attributes/${named}`);
  };
  for (const wire of ['s3-bucket', 's3-access-key', 's3-secret-key'])
    needs(row.storagePlace === 's3', wire, 'storage-place is s3');
  for (const wire of ['gs-bucket-name', 'gs-key', 'gs-secret'])
    needs(row.storagePlace === 'gs', wire, 'storage-place is gs');
  needs(row.emailService === 'smtp', 'smtp-host', 'email-service is smtp');
  needs(row.emailService === 'sendgrid', 'sendgrid-key', 'email-service is sendgrid');
}

const TRIMMED = ['emailFrom', 'adminBillingEmail', 'adminBillingPaypalEmail'];

/** Column values of sent attributes; one setting sent under both its names must carry one value. */
function valuesOf(attributes: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const namedBy: Record<string, string> = {};
  for (const [wire, sent] of Object.entries(attributes)) {
    // PostgreSQL's text cannot hold NUL: refused as every other JSON:API write refuses it (not a 500).
    if (hasNul(sent)) throw unprocessable('Text must not contain NUL characters', `/data/attributes/${wire}`);
    const column = columnOf(wire);
    let value = storedValue(wire, sent);
    if (TRIMMED.includes(column) && typeof value === 'string') value = value.trim();
    if (column in values && values[column] !== value) {
      throw unprocessable(
        `${wire} and ${namedBy[column]} name the same setting but carry different values`,
        `/data/attributes/${wire}`,
      );
    }
    values[column] = value;
    namedBy[column] = wire;
  }
  return values;
}

/**
 * `GET /v1/settings`, `GET /v1/settings/{id}` and `PATCH /v1/settings/{id}`: one record, id 1, whatever
 * id the path names, in the variant the caller may see.
 */
export default async function settingsRoutes(app: FastifyInstance, { config }: { config: Config }) {
  // Separate API and worker processes each see only their own disk (src/server.ts refuses to start so).
  const splitOnOwnDisks = config.ROLE !== 'all' && !config.LOCAL_STORAGE_SHARED;
  for (const schema of [
    SettingAttributes,
    SettingFull,
    SettingLimited,
    SettingSparse,
    SettingDocument,
    SettingUpdateRequest,
  ])
    app.addSchema(schema);
  const success = {
    200: Type.Ref(SettingDocument, { description: 'The settings: full for administrators, limited otherwise' }),
  };
  const description =
    'Administrators and super administrators get the full variant (SettingFull, secrets included); everyone ' +
    'else the limited one (SettingLimited); with `fields[setting]`, only the named attributes (SettingSparse).';

  // List clients read the one settings record with their list query (the reference's blueprint:
  // `?page[size]=10&page[number]=1&sort=app-name&filter=[]`): accepted, no effect.
  const ReadQuery = Type.Object(
    { ...SettingQuery.properties, ...ignoredListParameters(config.LIST_ALL_MAX, 'the one settings record') },
    { additionalProperties: false },
  );
  const reads = [
    { path: '', operationId: 'getSettings', summary: 'The settings' },
    { path: '/:id', operationId: 'getSettingsById', summary: 'The settings (any id names record 1)', params: Params },
  ];
  for (const { path, ...named } of reads) {
    app.get(
      `${API_PREFIX}/settings${path}`,
      operation({ tag: TAG, ...named, description, querystring: ReadQuery, success, errors: [400, 401, 406] }),
      async (request) => readDocument(app, request),
    );
  }
  // PATCH /v1/settings, as the reference's blueprint sends it, and /v1/settings/{id}, as the front end saves a record.
  const writes = [
    { path: '', operationId: 'updateSettings', summary: 'Change the settings' },
    {
      path: '/:id',
      operationId: 'updateSettingsById',
      summary: 'Change the settings (any id names record 1)',
      params: Params,
    },
  ];
  for (const { path, ...named } of writes) {
    app.patch(
      `${API_PREFIX}/settings${path}`,
      {
        // Only administrators learn what the settings accept: others are refused before the body is read.
        preValidation: async (request) => requireStaff(request),
        ...operation({
          tag: TAG,
          ...named,
          description:
            'Administrators only. Changes the given attributes of record 1 and answers the full variant. S3 or Google ' +
            'storage needs a bucket and keys, SMTP mail a host, SendGrid mail a key (422 otherwise). `aws-key`, ' +
            "`aws-secret`, `aws-bucket-name` and `aws-region` (the web front end's names) are the same settings as " +
            '`s3-access-key`, `s3-secret-key`, `s3-bucket` and `s3-region`.',
          querystring: SettingQuery,
          body: Type.Ref(SettingUpdateRequest),
          success: { 200: Type.Ref(SettingDocument, { description: 'The settings after the change' }) },
          errors: [400, 401, 403, 406, 409, 415, 422],
        }),
      },
      async (request) => {
        // A bad fields[setting] is refused before anything is written.
        const only = sparse(request);
        const { data } = request.body as { data: { id: string; attributes?: Record<string, unknown> } };
        const { id } = (request.params ?? {}) as { id?: string };
        if (data.id !== '1' && (id === undefined || data.id !== id))
          throw conflict('The id in the document does not match the URL', '/data/id');
        const values = valuesOf(data.attributes ?? {});
        if (splitOnOwnDisks && values.storagePlace === 'local') {
          throw unprocessable(
            'Local storage would keep files on one machine while this deployment runs separate API and worker processes: set LOCAL_STORAGE_SHARED=true on every process when STORAGE_DIR is shared',
            '/data/attributes/storage-place',
          );
        }
        const row = await app.db.transaction(async (tx) => {
          const [current] = await tx.select().from(settings).where(eq(settings.id, 1)).for('update');
          const merged = { ...current!, ...values } as Row;
          checkComplete(merged, Object.keys(data.attributes ?? {}));
          if (Object.keys(values).length > 0) await tx.update(settings).set(values).where(eq(settings.id, 1));
          return merged;
        });
        return documentFor(request, row, only);
      },
    );
  }
}
