import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { assistantDrafts } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import { assistantRoute, params } from './route.js';

/** A draft id: what storeDraft makes (hex) or what a client chose, one plain token. */
const DRAFT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The reference's draft members, sent one by one when there is no `object`. */
const MEMBERS = ['category', 'language', 'name', 'buildCode', 'designCode', 'configCode', 'image'] as const;
/** The text of one draft, and how many drafts a user keeps. */
export const MAX_DRAFT_CHARS = 256 * 1024;
export const MAX_DRAFTS = 100;

const draftId = (id: string | undefined) => {
  if (id === undefined || id === '') return undefined;
  if (!DRAFT_ID.test(id)) throw new AssistantError(400, 'The draft id must be 1 to 64 letters, digits, _ or -');
  return id;
};

/**
 * The bot builder's drafts (storeDraft, readDraft, deleteDraft): a JSON object per user and id in the
 * database; a user reaches only their own.
 */
export async function draftRoutes(app: FastifyInstance) {
  assistantRoute(
    app,
    {
      url: '/cms/storeDraft.json',
      method: ['GET', 'POST'],
      operationId: 'storeDraft',
      params: {
        ...params({
          object:
            'the draft: a JSON object (the bot builder sends category, language, name, buildCode, designCode, configCode, image)',
          id: 'the draft to replace (a new id is made when missing)',
        }),
        ...params(
          Object.fromEntries(MEMBERS.map((m) => [m, `without \`object\`: the draft's \`${m}\` (all seven required)`])),
        ),
      },
      failures: [400, 401, 413, 422],
      failureDescriptions: {
        422: "Without `object`, some of the seven members are empty (the reference's text)",
        413: `The draft is longer than ${MAX_DRAFT_CHARS} characters, or the user has ${MAX_DRAFTS} drafts`,
      },
      summary: 'Store a draft',
      description:
        "`object` (a JSON object) or the reference's seven members `category`, `language`, `name`, `buildCode`, `designCode`, " +
        "`configCode`, `image`; `id` to replace a draft. Answers the draft's `id`.",
      minimal: 'user',
    },
    async ({ params, caller }) => {
      let object: Record<string, unknown>;
      if (params.object !== undefined) {
        if (params.object.length > MAX_DRAFT_CHARS)
          throw new AssistantError(413, `A draft has at most ${MAX_DRAFT_CHARS} characters`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(params.object);
        } catch {
          throw new AssistantError(400, 'The object must be JSON');
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new AssistantError(400, 'The object must be a JSON object');
        // PostgreSQL's jsonb holds no NUL character and no lone surrogate (JSON.stringify escapes exactly those).
        if (/\\u(0000|d[89a-f][0-9a-f]{2})/i.test(JSON.stringify(parsed)))
          throw new AssistantError(400, 'The object must not contain NUL characters or lone surrogates');
        object = parsed as Record<string, unknown>;
      } else {
        object = Object.fromEntries(MEMBERS.map((m) => [m, params[m] ?? '']));
        if (Object.values(object).some((v) => v === ''))
          throw new AssistantError(422, 'some values of object are empty');
        if (JSON.stringify(object).length > MAX_DRAFT_CHARS)
          throw new AssistantError(413, `A draft has at most ${MAX_DRAFT_CHARS} characters`);
        if (/\\u(0000|d[89a-f][0-9a-f]{2})/i.test(JSON.stringify(object)))
          throw new AssistantError(400, 'The draft must not contain NUL characters or lone surrogates');
      }
      const id = draftId(params.id) ?? randomBytes(4).toString('hex');
      const userId = caller!.id;
      await app.db.transaction(async (tx) => {
        // One user's drafts are counted and written one request at a time.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('assistant_drafts'), ${userId})`);
        const [existing] = await tx
          .select({ id: assistantDrafts.id })
          .from(assistantDrafts)
          .where(and(eq(assistantDrafts.userId, userId), eq(assistantDrafts.id, id)));
        if (!existing) {
          const [{ n }] = (await tx
            .select({ n: count() })
            .from(assistantDrafts)
            .where(eq(assistantDrafts.userId, userId))) as [{ n: number }];
          if (n >= MAX_DRAFTS)
            throw new AssistantError(413, `A user keeps at most ${MAX_DRAFTS} drafts; delete some first`);
        }
        await tx
          .insert(assistantDrafts)
          .values({ userId, id, object })
          .onConflictDoUpdate({
            target: [assistantDrafts.userId, assistantDrafts.id],
            set: { object, modifiedAt: new Date() },
          });
      });
      return { accepted: true, message: 'draft stored', id };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/readDraft.json',
      method: 'GET',
      operationId: 'readDraft',
      params: params({ id: "one draft (all of the caller's when missing)" }),
      failures: [400, 401],
      summary: 'Read drafts',
      description:
        "`id` (optional): `drafts`, an object of draft id -> the stored object, the caller's own only, oldest first.",
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const id = draftId(params.id);
      const rows = await app.db
        .select({ id: assistantDrafts.id, object: assistantDrafts.object })
        .from(assistantDrafts)
        .where(and(eq(assistantDrafts.userId, caller!.id), id ? eq(assistantDrafts.id, id) : undefined))
        .orderBy(asc(assistantDrafts.createdAt), asc(assistantDrafts.id));
      return { accepted: true, drafts: Object.fromEntries(rows.map((r) => [r.id, r.object])) };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/deleteDraft.json',
      method: 'GET',
      operationId: 'deleteDraft',
      params: params({ id: 'the draft (required)' }),
      failures: [400, 401],
      summary: 'Delete a draft',
      description: "`id`: deletes the caller's draft of that id (`accepted` true also when there was none).",
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const id = draftId(params.id);
      if (!id) throw new AssistantError(400, 'The draft id is not given');
      const gone = await app.db
        .delete(assistantDrafts)
        .where(and(eq(assistantDrafts.userId, caller!.id), eq(assistantDrafts.id, id)))
        .returning({ id: assistantDrafts.id });
      return { accepted: true, message: gone.length > 0 ? 'draft deleted' : 'no such draft' };
    },
  );
}
