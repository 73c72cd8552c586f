import { speakersCalls, CFS_PRIVACIES } from '../../../db/schema/index.js';
import { DateTime, Nullable, defineResource, unprocessable, type Row } from '../../jsonapi/index.js';
import { choice, deletedAt, eventOf, optionalText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { checkPeriod } from '../period.js';

/** starts-at < ends-at, and a soft end (when set) within the call, as the write would leave it. */
export function checkCall(values: Record<string, unknown>, current?: Row) {
  checkPeriod(values, current);
  const get = (k: string) => (k in values ? values[k] : current?.[k]);
  const soft = get('softEndsAt');
  const starts = get('startsAt');
  if (soft instanceof Date && starts instanceof Date && soft <= starts)
    throw unprocessable('soft-ends-at must be after starts-at', '/data/attributes/soft-ends-at');
}

export const speakersCallResource = defineResource({
  type: 'speakers-call',
  path: 'speakers-calls',
  aliases: ['speakers-call'],
  name: 'SpeakersCall',
  tag: 'Speakers calls',
  description:
    'The call for speakers of an event: at most one per event (a second one is 409). Readable where the ' +
    "event is (the front end compares the hash of a private call's link itself); written by the event's " +
    'organizers and coorganizers. ends-at must be after starts-at.',
  table: speakersCalls,
  softDelete: 'deletedAt',
  attributes: {
    announcement: optionalText('announcement', 100_000),
    'starts-at': { column: 'startsAt', schema: DateTime(), required: true },
    'soft-ends-at': {
      column: 'softEndsAt',
      schema: Nullable(DateTime({ description: 'a soft deadline, after starts-at' })),
    },
    'ends-at': { column: 'endsAt', schema: DateTime({ description: 'after starts-at' }), required: true },
    privacy: {
      column: 'privacy',
      schema: choice(CFS_PRIVACIES, 'public (default) or private: a private call is reached by its hash'),
    },
    hash: optionalText('hash', 255, 'the secret part of the link to a private call'),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: eventRecordPolicy(),
  hooks: {
    beforeCreate: (_ctx, values) => checkCall(values),
    beforeUpdate: (_ctx, row, values) => checkCall(values, row),
  },
  unique: {
    speakers_calls_event_id_key: {
      pointer: '/data/relationships/event',
      detail: 'The event already has a call for speakers',
    },
  },
});
