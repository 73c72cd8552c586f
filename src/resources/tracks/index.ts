import { Type } from '@sinclair/typebox';
import { tracks } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt, eventOf, optionalText, position, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { trackActivity } from '../activity-lines.js';

/** Black on light colours, white on dark ones (ITU-R BT.601 luma). */
export function fontColorFor(color: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000000' : '#ffffff';
}

export const trackResource = defineResource({
  type: 'track',
  path: 'tracks',
  name: 'Track',
  tag: 'Tracks',
  description: 'A track (a thread of sessions) of an event.',
  table: tracks,
  activity: trackActivity,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    color: {
      column: 'color',
      schema: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'hex colour, e.g. #a04b23' }),
      required: true,
      write: (v) => ({ color: (v as string).toLowerCase(), fontColor: fontColorFor(v as string) }),
    },
    'font-color': {
      column: 'fontColor',
      schema: Type.String({ description: 'black or white, whichever reads better on the colour' }),
      readOnly: true,
    },
    description: optionalText('description', 100_000),
    position,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    sessions: { kind: 'toMany', type: 'session', foreignKey: 'trackId', description: 'sessions of the track' },
  },
  policy: eventRecordPolicy({ service: 'track' }),
});
