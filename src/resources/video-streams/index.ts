import { Type } from '@sinclair/typebox';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { microlocations, videoStreams } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import {
  Nullable,
  Text,
  Url,
  anyOf,
  defineResource,
  integerId,
  notFound,
  unprocessable,
  type Ctx,
  type Policy,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { optionalText, optionalUrl, requiredText } from '../attributes.js';
import { inManagedEvent, inVisibleEvent, namedEvent, requireRole } from '../events/access.js';

const PRIVATE_NOTE = 'returned only to the organizers and coorganizers of its event and to administrators';

const flag = (description: string) => Type.Optional(Nullable(Type.Boolean({ description })));
const text = (maxLength: number) => Type.Optional(Nullable(Text(maxLength)));

/** The options the Open Event front end sets per provider (app/models/video-stream.ts:10-25), as the reference takes them. */
const Extra = Nullable(
  Type.Object(
    {
      autoplay: flag('YouTube and Vimeo: start playing at once'),
      loop: flag('YouTube and Vimeo: play in a loop'),
      bbb_options: Type.Optional(
        Nullable(
          Type.Object(
            {
              record: flag('record the meeting'),
              autoStartRecording: flag('start recording when the meeting starts'),
              muteOnStart: flag('join muted'),
              endCurrentMeeting: flag('end the running meeting when the options change'),
              allowModsToUnmuteUsers: flag('moderators may unmute others'),
              welcome: text(1000),
              maxParticipants: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
              duration: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000, description: 'minutes' }))),
              moderatorOnlyMessage: text(1000),
              logo: Type.Optional(Nullable(Url())),
              bannerText: text(1000),
              bannerColor: text(32),
              guestPolicy: text(64),
            },
            { additionalProperties: false, description: 'BigBlueButton meeting options' },
          ),
        ),
      ),
      jitsi_options: Type.Optional(
        Nullable(
          Type.Object(
            { muteOnStart: flag('join muted'), hideCamOnStart: flag('join with the camera off') },
            { additionalProperties: false, description: 'Jitsi meeting options' },
          ),
        ),
      ),
    },
    { additionalProperties: false, description: `provider options; ${PRIVATE_NOTE}` },
  ),
);

/** A flag the front end may send as null (an untyped attr it never set): null stores false. */
const nullableFlag = (column: string, description: string) => ({
  column,
  schema: Type.Boolean({ description: `${description}; null is false` }),
  input: Nullable(Type.Boolean()),
  write: (v: unknown) => ({ [column]: v === true }),
});

const owners = new WeakMap<WriteInput, number>();

/** The ids among `raw` that can be microlocation ids (others are left to the 404 of the relationship check). */
const roomIds = (raw: string[]) => raw.map((id) => integerId(id)).filter((id): id is number => id !== undefined);

/**
 * The event a new stream belongs to: the event it is the stream of, or the one event of its rooms.
 * Exactly one of the two is named, as the reference requires.
 */
async function ownerOf(ctx: Ctx, input: WriteInput): Promise<number> {
  const known = owners.get(input);
  if (known !== undefined) return known;
  const event = input.relationships.event;
  const rooms = (input.relationships.rooms as string[] | undefined) ?? [];
  if ((event !== undefined && event !== null) === rooms.length > 0)
    throw unprocessable(
      'A video stream names either its event or its rooms, not both and not neither',
      '/data/relationships',
    );
  let owner: number;
  if (typeof event === 'string') owner = namedEvent(event);
  else {
    const found = await ctx.db
      .selectDistinct({ eventId: microlocations.eventId })
      .from(microlocations)
      .where(and(anyOf(microlocations.id, roomIds(rooms)), isNull(microlocations.deletedAt)));
    if (found.length === 0) throw notFound(`Related microlocation "${rooms[0]}" not found`);
    if (found.length > 1)
      throw unprocessable('The rooms of a video stream belong to one event', '/data/relationships/rooms');
    owner = found[0]!.eventId;
  }
  owners.set(input, owner);
  return owner;
}

/** The event a stored stream belongs to (not a member of the record, so not in the row the engine reads). */
async function ownerOfRow(ctx: Ctx, row: Row): Promise<number> {
  const [found] = await ctx.db
    .select({ owner: videoStreams.ownerEventId })
    .from(videoStreams)
    .where(eq(videoStreams.id, row.id as number))
    .limit(1);
  return found!.owner;
}

/** Refuses rooms of another event than the stream's. */
async function checkRooms(ctx: Ctx, owner: number, input: WriteInput) {
  const rooms = input.relationships.rooms;
  if (!Array.isArray(rooms) || rooms.length === 0) return;
  const [stranger] = await ctx.db
    .select({ id: microlocations.id })
    .from(microlocations)
    .where(and(anyOf(microlocations.id, roomIds(rooms)), ne(microlocations.eventId, owner)))
    .limit(1);
  if (stranger)
    throw unprocessable(
      `microlocation ${stranger.id} belongs to another event than this video stream`,
      '/data/relationships/rooms',
    );
}

/**
 * Streams are seen where their event is (the public schedule shows which room streams where); what it
 * takes to join (url, password, provider options, notes) only its organizers, coorganizers and
 * administrators see and write. The reference also shows them to ticket holders and speakers; here
 * those learn only whether they may join (`GET /v1/events/{id}/has-streams`).
 */
const videoStreamPolicy: Policy = {
  scope: (ctx, t) => inVisibleEvent(ctx, t.ownerEventId!),
  existsFor: (ctx, t) => inVisibleEvent(ctx, t.ownerEventId!),
  seesPrivate: (ctx, t) => inManagedEvent(ctx.caller, t.ownerEventId!),
  list() {},
  read() {},
  async create(ctx, input) {
    loggedIn(ctx);
    const owner = await ownerOf(ctx, input);
    await requireRole(ctx, owner, 'coorganizer', 'Related event not found');
    await checkRooms(ctx, owner, input);
  },
  async update(ctx, row: Row, input) {
    const owner = await ownerOfRow(ctx, row);
    await requireRole(ctx, owner, 'coorganizer');
    const { event, rooms } = input.relationships;
    if (typeof event === 'string' && Array.isArray(rooms) && rooms.length > 0)
      throw unprocessable('A video stream names either its event or its rooms, not both', '/data/relationships');
    if (typeof event === 'string' && namedEvent(event) !== owner)
      throw unprocessable('A video stream cannot move to another event', '/data/relationships/event');
    await checkRooms(ctx, owner, input);
  },
  delete: async (ctx, row: Row) => requireRole(ctx, await ownerOfRow(ctx, row), 'coorganizer'),
};

export const videoStreamResource = defineResource({
  type: 'video-stream',
  path: 'video-streams',
  name: 'VideoStream',
  tag: 'Video streams',
  description:
    "An online room of an event: either the event's own stream (`event`, at most one per event, a second one is 409) or " +
    'the stream of some of its rooms (`rooms`); a create names exactly one of the two. Readable where the event is; ' +
    `url, password, additional-information and extra are ${PRIVATE_NOTE}, who also write streams.`,
  table: videoStreams,
  attributes: {
    name: requiredText('name', 255),
    url: {
      column: 'url',
      schema: Url({ description: `where the stream or meeting is; ${PRIVATE_NOTE}` }),
      required: true,
      private: true,
    },
    password: { ...optionalText('password', 255, `password of the meeting; ${PRIVATE_NOTE}`), private: true },
    'additional-information': { ...optionalText('additionalInformation', 10_000, PRIVATE_NOTE), private: true },
    'bg-img-url': optionalUrl('bgImgUrl', 'background image of the room'),
    extra: { column: 'extra', schema: Extra, private: true },
    'is-chat-enabled': nullableFlag('isChatEnabled', 'the room has a chat'),
    'is-global-event-room': nullableFlag('isGlobalEventRoom', "the chat is the event's global room"),
    'chat-room-name': {
      column: 'chatRoomName',
      schema: Text(600, {
        description: 'name of the chat room: the name with other characters than letters, digits and ! as -, then -id',
      }),
      readOnly: true,
    },
  },
  relationships: {
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      description: 'the event whose own stream this is (null for a stream of rooms); never another event',
    },
    rooms: {
      kind: 'toMany',
      type: 'microlocation',
      foreignKey: 'videoStreamId',
      settable: true,
      description:
        "the rooms (microlocations) that stream here, all of the stream's event; a room streams in one place",
    },
  },
  policy: videoStreamPolicy,
  hooks: {
    async beforeCreate(ctx, values, input) {
      values.ownerEventId = await ownerOf(ctx, input);
    },
  },
  unique: {
    video_streams_event_id_key: {
      pointer: '/data/relationships/event',
      detail: 'The event already has a video stream',
    },
  },
});

/** A microlocation may stream only in a video stream of its own event. */
export async function checkRoomStream(ctx: Ctx, values: Record<string, unknown>, row?: Row) {
  const streamId = values.videoStreamId;
  if (streamId === undefined || streamId === null) return;
  const eventId = (values.eventId ?? row?.eventId) as number;
  const [stream] = await ctx.db
    .select({ owner: videoStreams.ownerEventId })
    .from(videoStreams)
    .where(eq(videoStreams.id, streamId as number))
    .limit(1);
  if (stream && stream.owner !== eventId)
    throw unprocessable(
      `video-stream ${String(streamId)} belongs to another event than this microlocation`,
      '/data/relationships/video-stream',
    );
}
