import { customForms } from '../../../db/schema/index.js';
import type { Ctx } from '../../jsonapi/index.js';

/**
 * The attendee form every new event starts with (app/api/helpers/events.py create_custom_forms_for_attendees):
 * the holder's email, required, shown and fixed. The front end's order page builds its form from an event's
 * attendee fields and breaks without it. Imports bring their own forms, so only POST /v1/events calls this.
 */
export async function createDefaultForms(ctx: Ctx, eventId: number) {
  await ctx.db.insert(customForms).values({
    eventId,
    form: 'attendee',
    fieldIdentifier: 'email',
    type: 'email',
    name: 'Email',
    isRequired: true,
    isIncluded: true,
    isFixed: true,
  });
}
