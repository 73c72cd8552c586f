import { ticketTagging, ticketTags } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt, eventOf, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

export const ticketTagResource = defineResource({
  type: 'ticket-tag',
  path: 'ticket-tags',
  name: 'TicketTag',
  tag: 'Ticket tags',
  description:
    "A label the event's organizers put on its tickets. Readable where the event is; written by the event's " +
    'organizers and coorganizers. Its tickets must be of its event.',
  table: ticketTags,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    tickets: {
      kind: 'toMany',
      type: 'ticket',
      through: { table: ticketTagging, from: 'ticketTagId', to: 'ticketId' },
      within: 'event',
      description: 'the tickets carrying the tag (hidden ones for the organizers only), all of its event',
    },
  },
  policy: eventRecordPolicy(),
});
