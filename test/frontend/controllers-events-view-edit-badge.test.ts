/**
 * open-event-frontend's badge page (`events.view.edit.badge`): app/routes/events/view/edit/badge.js:10-29 loads the
 * event's tickets and badge forms (`page[size]=0`) and its attendee form; app/components/forms/wizard/badge-step.js
 * re-creates each stored field as a badge-field-form record with `badge_field_id` (prepareCustomFormsForShow) and
 * gives a new badge an id (v4); app/controllers/events/view/edit/badge.js:8-16 saves every badge form, then every
 * ticket with its `badge-id`. A badge form is serialised by app/serializers/application.js from
 * app/models/badge-form.js (`badgeID` → `badge-id`, `isShowingSampleData`, `selectedImage`, `imageUrl` beside the
 * stored members), and its `badgeFields` are the field records as ember-data's JSON serializer writes them
 * (app/models/badge-field-form.js: snake_case members with their defaults, `event: null`). The bodies below are the
 * ones the built front end sent in Chromium (test/browser), ids aside.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { createTicket } from '../helpers/tickets.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Badge Conf', 'published');
const standard = await createTicket(app, cast.owner.token, event, { name: 'Standard' });
const registrar = (await seedUser(app))!;
await app.sql`insert into event_roles (event_id, user_id, role) values (${Number(event)}, ${Number(registrar.id)}, 'registrar')`;
const BADGE = '7f061905-d650-4d9e-bffb-5972679ab855';

/** A field the badge editor adds ("Add Rows": app/components/forms/wizard/badge-form.js addBadgeField), as serialised. */
const addedField = (over: Record<string, unknown> = {}) => ({
  badge_field_id: null,
  badge_id: BADGE,
  field_identifier: null,
  custom_field: null,
  sample_text: 'Sample Text',
  font_size: 14,
  font_name: 'Arial',
  font_color: '#000000',
  text_rotation: 0,
  margin_top: 0,
  margin_bottom: 0,
  margin_left: 0,
  margin_right: 0,
  text_alignment: 'center',
  text_type: 'None',
  is_deleted: false,
  is_field_expanded: true,
  event: null,
  ...over,
});

/** A stored field as badge-step.js re-creates it from a read (`badge_field_id: field.id` and the stored members). */
const shownField = (field: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  badge_field_id: field.id,
  badge_id: field.badge_id,
  field_identifier: field.field_identifier,
  custom_field: field.custom_field,
  sample_text: field.sample_text,
  font_size: field.font_size,
  font_name: field.font_name,
  font_color: field.font_color,
  text_rotation: field.text_rotation,
  margin_top: field.margin_top,
  margin_bottom: field.margin_bottom,
  margin_left: field.margin_left,
  margin_right: field.margin_right,
  font_weight: field.font_weight,
  text_alignment: field.text_alignment,
  text_type: field.text_type,
  is_deleted: field.is_deleted,
  qr_custom_field: field.qr_custom_field,
  is_field_expanded: field.is_field_expanded,
  event: null,
  ...over,
});

const formAttributes = (fields: unknown[], over: Record<string, unknown> = {}) => ({
  'badge-id': BADGE,
  'is-showing-sample-data': false,
  'badge-size': '4 x 6 inch (101.6 x 152.4 mm)',
  'badge-color': null,
  'badge-image-url': null,
  'badge-orientation': 'Portrait',
  'badge-fields': fields,
  'selected-image': null,
  'image-url': null,
  ...over,
});
const eventLink = { event: { data: { type: 'event', id: event } } };

for (const [who, token] of [
  ['the organizer', cast.owner.token],
  ['a registrar', registrar.token],
] as const) {
  t.test(`${who}: the page loads, a badge is added, saved, shown again and saved again`, async (t) => {
    await app.sql`update badge_field_forms set deleted_at = now()`;
    await app.sql`update badge_forms set deleted_at = now()`;
    const client = frontEnd(base, token);
    // The route's model (badge.js:17-27), the event named as the events.view route loaded it.
    const tickets = await client.adapter('GET', `/v1/events/${event}/tickets`, { query: { 'page[size]': 0 } });
    t.equal(tickets.status, 200);
    const forms = await client.adapter('GET', `/v1/events/${event}/badge-forms`, { query: { 'page[size]': 0 } });
    t.equal(forms.status, 200);
    t.strictSame(forms.body.data, [], 'no badge yet');
    const customForms = await client.adapter('GET', `/v1/events/${event}/custom-forms`, {
      query: { filter: [{ name: 'form', op: 'eq', val: 'attendee' }], sort: 'id', 'page[size]': 500 },
    });
    t.equal(customForms.status, 200);

    // "Add Another Badge", two rows, one of them removed before saving; the badge-form record is new: POST.
    const posted = await client.adapter('POST', '/v1/badge-forms', {
      body: {
        data: {
          attributes: formAttributes([
            addedField({ custom_field: 'First Name', field_identifier: 'firstname' }),
            addedField({ custom_field: 'QR', field_identifier: 'QR', qr_custom_field: ['email'] }),
            addedField({ is_deleted: true }),
          ]),
          relationships: eventLink,
          type: 'badge-form',
        },
      },
    });
    t.equal(posted.status, 201, JSON.stringify(posted.body?.errors));
    const stored = posted.body.data.attributes['badge-fields'];
    t.same(
      stored.map((f: any) => [f.custom_field, f.badge_id, f.qr_custom_field]),
      [
        ['First Name', BADGE, null],
        ['QR', BADGE, ['email']],
      ],
    );
    // Then every ticket, the chosen one with the badge (badge.js:10-13; the ticket model's badgeID default is '').
    const ticket = await client.adapter('GET', `/v1/tickets/${standard}`);
    const saved = await client.adapter('PATCH', `/v1/tickets/${standard}`, {
      body: {
        data: {
          id: standard,
          attributes: { ...ticket.body.data.attributes, 'badge-id': BADGE },
          relationships: eventLink,
          type: 'ticket',
        },
      },
    });
    if (token === registrar.token) {
      // A registrar keeps badges and writes no ticket (the wizard's ticket save is the organizers').
      t.equal(saved.status, 403, 'the ticket save is refused to a registrar');
      await app.sql`update tickets set badge_id = ${BADGE} where id = ${Number(standard)}`;
    } else {
      t.equal(saved.status, 200, JSON.stringify(saved.body?.errors));
      t.equal(saved.body.data.attributes['badge-id'], BADGE);
    }

    // Back on the page: the form read by the event (named by identifier now), its fields within it.
    const again = await client.adapter('GET', `/v1/events/${identifier}/badge-forms`, { query: { 'page[size]': 0 } });
    const [form] = again.body.data;
    t.strictSame(form.attributes['badge-fields'], stored, 'the fields read back as they were answered');
    // badge-step.js shows each stored field as a record with badge_field_id; the person edits one and removes one.
    const [first, qr] = stored;
    const patched = await client.adapter('PATCH', `/v1/badge-forms/${form.id}`, {
      body: {
        data: {
          id: form.id,
          attributes: formAttributes(
            [
              shownField(first, { font_size: 24, margin_top: '3' }),
              shownField(qr, { is_deleted: true }),
              addedField({ custom_field: 'Organisation', field_identifier: 'organisation' }),
            ],
            { 'is-showing-sample-data': true, 'badge-color': '#ffeedd' },
          ),
          relationships: eventLink,
          type: 'badge-form',
        },
      },
    });
    t.equal(patched.status, 200, JSON.stringify(patched.body?.errors));
    t.same(
      patched.body.data.attributes['badge-fields'].map((f: any) => [
        f.id === first.id,
        f.custom_field,
        f.font_size,
        f.margin_top,
      ]),
      [
        [true, 'First Name', 24, 3],
        [false, 'Organisation', 14, 0],
      ],
      'the edited field kept its id; the removed one is gone; the added one is new',
    );
    t.equal(patched.body.data.attributes['badge-color'], '#ffeedd');
  });
}

t.test('anyone else finds no badge forms', async (t) => {
  const client = frontEnd(base, cast.other.token);
  const forms = await client.adapter('GET', `/v1/events/${event}/badge-forms`, { query: { 'page[size]': 0 } });
  t.equal(forms.status, 404);
  const post = await client.adapter('POST', '/v1/badge-forms', {
    body: { data: { attributes: formAttributes([addedField()]), relationships: eventLink, type: 'badge-form' } },
  });
  t.equal(post.status, 404);
});
