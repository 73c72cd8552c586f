/** A session's ratings, favourites and speaker invites: its computed counts and the relationships to them. */
import { Type } from '@sinclair/typebox';
import { Nullable, type AttributeSpec, type RelationshipSpec } from '../../jsonapi/index.js';
import { callersFavourite } from '../user-favourite-sessions/index.js';

/**
 * Stored on the session and kept by database triggers on feedback and favourites, so lists sort and
 * filter by them and read them from the row. The front end's model sends them back on every save (they
 * are not readOnly there: app/models/session.js:43,51), with null on create, and by then they may have
 * changed under it: any number sent is ignored.
 */
const computed = (column: string, schema: AttributeSpec['schema'], description: string): AttributeSpec => ({
  column,
  schema: { ...schema, description: `${description}; computed by the server, a value sent is ignored` },
  input: Nullable(Type.Number({ description: 'ignored' })),
  write: () => ({}),
});

export const sessionSocialAttributes: Record<string, AttributeSpec> = {
  'average-rating': computed('averageRating', Type.Number(), 'the mean rating of its live feedback, 0 with none'),
  'favourite-count': computed(
    'favouriteCount',
    Type.Integer({ minimum: 0 }),
    'how many users have it on their schedule',
  ),
};

export const sessionSocialRelationships: Record<string, RelationshipSpec> = {
  feedbacks: {
    kind: 'toMany',
    type: 'feedback',
    foreignKey: 'sessionId',
    description: "ratings of the session: the caller's own, all for the event's organizers and coorganizers",
  },
  favourite: {
    kind: 'toOne',
    type: 'user-favourite-session',
    foreignKey: 'sessionId',
    readOnly: true,
    where: callersFavourite,
    description:
      "the caller's own favourite of the session (null when it is not on the caller's schedule, and for anonymous callers)",
  },
  favourites: {
    kind: 'toMany',
    type: 'user-favourite-session',
    foreignKey: 'sessionId',
    readOnly: true,
    aliases: ['user-favourite-sessions'],
    description: "users' favourites of the session: the caller's own, all for the event's organizers and coorganizers",
  },
  'speaker-invites': {
    kind: 'toMany',
    type: 'speaker-invite',
    foreignKey: 'sessionId',
    description:
      "invitations to speak at the session: for its speakers, the event's organizers and each invitee (their own)",
  },
};
