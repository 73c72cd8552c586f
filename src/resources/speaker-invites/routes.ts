import { Type } from '@sinclair/typebox';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { events, sessions, speakerInvites, speakers, speakersSessions, users } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import {
  API_PREFIX,
  compatibilityParameters,
  conflict,
  errorResponses,
  forbidden,
  integerId,
  notFound,
  unprocessable,
  type Columns,
  type Ctx,
} from '../../jsonapi/index.js';
import type { Db } from '../../../plugins/db.js';
import { sameAddress } from './access.js';
import { speakerInviteResource } from './index.js';

const TAG = 'Speaker invites';
const Params = Type.Object({ id: Type.String({ maxLength: 32, description: 'id of the speaker invite' }) });
const NoQuery = Type.Object(compatibilityParameters, { additionalProperties: false });

const AcceptedInvite = Type.Object(
  {
    email: Type.String(),
    event: Type.Integer({ description: 'id of the event' }),
    event_identifier: Type.String(),
    session: Type.Integer({ description: 'id of the session the speaker now speaks at' }),
    speaker: Type.Integer({ description: "id of the invitee's speaker record, now linked to the session" }),
    name: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'AcceptedSpeakerInvite', additionalProperties: false, description: 'the answer of the reference server' },
);
const RejectedInvite = Type.Object(
  { success: Type.Literal(true), message: Type.String() },
  { $id: 'RejectedSpeakerInvite', additionalProperties: false },
);

/**
 * The invite a path names, locked, if the caller sees it (404 otherwise), and only for its invitee (403),
 * while pending (409).
 */
async function pendingInviteOf(ctx: Ctx, raw: string, answer: 'accept' | 'reject') {
  const caller = loggedIn(ctx);
  const id = integerId(raw);
  if (id === undefined) throw notFound('Speaker Invite Not Found');
  const [invite] = await ctx.db
    .select({
      id: speakerInvites.id,
      email: speakerInvites.email,
      status: speakerInvites.status,
      sessionId: speakerInvites.sessionId,
      eventId: speakerInvites.eventId,
    })
    .from(speakerInvites)
    .where(
      and(eq(speakerInvites.id, id), speakerInviteResource.policy.scope(ctx, speakerInvites as unknown as Columns)),
    )
    .for('update')
    .limit(1);
  if (!invite) {
    // The invitee whose address is not verified yet sees no invite; tell them what to do rather than 404.
    if (!caller.isVerified) {
      const [mine] = await ctx.db
        .select({ id: speakerInvites.id })
        .from(speakerInvites)
        .where(and(eq(speakerInvites.id, id), sameAddress(speakerInvites.email, caller.email)))
        .limit(1);
      if (mine) throw forbidden('Verify your email address before you answer a speaker invite');
    }
    throw notFound('Speaker Invite Not Found');
  }
  if (invite.email.trim().toLowerCase() !== caller.email.trim().toLowerCase())
    throw forbidden('Invitee access is required');
  if (invite.status !== 'pending') {
    const done = invite.status === 'accepted' ? 'accepted' : 'rejected';
    throw conflict(
      answer === 'accept' && done === 'accepted'
        ? 'Speaker invite is already accepted'
        : `A speaker invite that is ${done} cannot be ${answer === 'accept' ? 'accepted' : 'rejected'}`,
      '/data/attributes/status',
    );
  }
  return invite;
}

/** Accepting: the invitee's (verified) account and speaker record of the event; the speaker joins the session. */
async function accept(ctx: Ctx, db: Db, raw: string) {
  const caller = loggedIn(ctx);
  const invite = await pendingInviteOf(ctx, raw, 'accept');
  if (!caller.isVerified) throw forbidden('Verify your email address before you accept a speaker invite');
  const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, caller.id));
  const [session] = await db
    .select({ id: sessions.id, identifier: events.identifier })
    .from(sessions)
    .innerJoin(events, and(eq(events.id, sessions.eventId), isNull(events.deletedAt)))
    .where(and(eq(sessions.id, invite.sessionId), isNull(sessions.deletedAt)));
  if (!session) throw notFound('The session of this speaker invite no longer exists');
  const [speaker] = await db
    .select({ id: speakers.id, name: speakers.name })
    .from(speakers)
    .where(
      and(
        eq(speakers.eventId, invite.eventId),
        isNull(speakers.deletedAt),
        or(eq(speakers.userId, caller.id), sameAddress(speakers.email, caller.email)),
      ),
    )
    .orderBy(sql`${speakers.userId} = ${caller.id} desc`, speakers.id)
    .limit(1);
  if (!speaker)
    throw unprocessable("Add your speaker details on the event's call for speakers page before you accept the invite");
  await db.insert(speakersSessions).values({ speakerId: speaker.id, sessionId: session.id }).onConflictDoNothing();
  await db.update(speakerInvites).set({ status: 'accepted' }).where(eq(speakerInvites.id, invite.id));
  return {
    email: caller.email,
    event: invite.eventId,
    event_identifier: session.identifier,
    session: session.id,
    speaker: speaker.id,
    name: user?.name ?? speaker.name ?? null,
  };
}

/**
 * `GET /v1/speaker-invites/{id}/accept-invite` and `/reject-invite`, as the front end's loader calls them
 * (app/controllers/public/speaker-invite/view-session.js:27,53): the invitee's answer, plain JSON as the
 * reference answers (app/api/speaker_invites.py).
 */
export default async function speakerInviteRoutes(app: FastifyInstance) {
  app.addSchema(AcceptedInvite);
  app.addSchema(RejectedInvite);
  // These GETs write (the front end's loader calls them so): the read cache forgets before the answer
  // leaves, as it does for every other write, so the invitee reads the session's new speaker at once.
  const answered = <T>(body: T): T => {
    app.readCache?.clear();
    return body;
  };
  const ctxOf = (request: FastifyRequest, db: Db): Ctx => ({ caller: request.caller, db, request });
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  const rules =
    'Only the invitee may answer, signed in with the invited address (403 for anyone else who sees the invite, 404 ' +
    'for those who do not); an answered invite answers 409.';

  app.get(
    `${API_PREFIX}/speaker-invites/:id/accept-invite`,
    {
      onRequest: requireLogin(app),
      config: { cache: false },
      schema: {
        tags: [TAG],
        operationId: 'acceptSpeakerInvite',
        summary: 'Accept a speaker invite',
        description:
          "The invitee's speaker record of the event (by account or address) joins the session as one of its speakers " +
          `and the invite becomes accepted. The invitee must be verified (403) and have a speaker record in the event (422). ${rules}`,
        params: Params,
        querystring: NoQuery,
        response: {
          200: Type.Ref(AcceptedInvite, { description: 'Accepted' }),
          ...errorResponses([400, 401, 403, 404, 409, 422]),
        },
      },
    },
    async (request) => answered(await app.db.transaction((tx) => accept(ctxOf(request, tx), tx, id(request)))),
  );

  app.get(
    `${API_PREFIX}/speaker-invites/:id/reject-invite`,
    {
      onRequest: requireLogin(app),
      config: { cache: false },
      schema: {
        tags: [TAG],
        operationId: 'rejectSpeakerInvite',
        summary: 'Reject a speaker invite',
        description: `The invite becomes rejected. ${rules}`,
        params: Params,
        querystring: NoQuery,
        response: {
          200: Type.Ref(RejectedInvite, { description: 'Rejected' }),
          ...errorResponses([400, 401, 403, 404, 409]),
        },
      },
    },
    async (request) =>
      answered(
        await app.db.transaction(async (tx) => {
          const invite = await pendingInviteOf(ctxOf(request, tx), id(request), 'reject');
          await tx.update(speakerInvites).set({ status: 'rejected' }).where(eq(speakerInvites.id, invite.id));
          return { success: true as const, message: 'Speaker invite rejected successfully' };
        }),
      ),
  );
}
