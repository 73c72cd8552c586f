/**
 * The routes that print badges, as background tasks polled like exports (`GET /v1/tasks/{id}`): one ticket holder's
 * badge (`GET /v1/badge-forms/print-badge-pdf`, the reference's app/api/custom/badge_forms.py print_badge_pdf) and
 * an event's badges (`GET|POST /v1/events/{event_id}/export/badges/pdf`). For the event's door: its owner,
 * organizers, coorganizers and registrars, and administrators; anyone else finds nothing (404).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireLogin } from '../../auth/caller.js';
import { TaskStarted } from '../../transfer/schemas.js';
import { API_PREFIX, errorResponses, integerId, JsonApiError, notFound } from '../../jsonapi/index.js';
import { eventIdNamed, requireDoor } from '../events/access.js';
import { PAGE_SIZES, type PageSize } from './badge-pdf.js';
import {
  anyBadgeToPrint,
  CHECKED_IN,
  designOf,
  fieldList,
  holderOf,
  type BadgePrint,
  type CheckedIn,
} from './print.js';

const TAG = 'Badge forms';

/** Queues an export task of the event with `options` and answers its URL (src/transfer/routes.ts). */
export type QueueTask = (request: FastifyRequest, eventId: number, options: object) => Promise<{ task_url: string }>;

/** A 422 naming the query parameter at fault. */
const refused = (detail: string, parameter: string) => new JsonApiError(422, 'Validation error', detail, { parameter });

const pageSize = (fallback: PageSize) =>
  Type.Union(
    PAGE_SIZES.map((s) => Type.Literal(s)),
    {
      description:
        '`label`: one badge per page, the page the size of the badge (label printers); `a4`: as many badges as fit ' +
        `on an A4 sheet, turned the way that holds more, with dashed cut lines. Default \`${fallback}\``,
    },
  );
const FIELDS = Type.String({
  maxLength: 2000,
  description:
    'the identifiers of the fields to print, separated by commas (`firstname,lastname,company`): the others print ' +
    'blank, as in the reference. All fields when absent. Fixed texts and the QR code always print',
});

const PrintQuery = Type.Object(
  {
    attendee_id: Type.String({ minLength: 1, maxLength: 32, description: 'the id of the ticket holder' }),
    list_field_show: Type.Optional(FIELDS),
    page_size: Type.Optional(pageSize('label')),
  },
  { additionalProperties: false },
);

const CHECKED_IN_TEXT =
  'which ticket holders: those checked in (`true`, the default), those not checked in (`false`), or all (`all`)';
const BadgesQuery = Type.Object(
  {
    checked_in: Type.Optional(
      Type.Union(
        CHECKED_IN.map((c) => Type.Literal(c)),
        { description: CHECKED_IN_TEXT },
      ),
    ),
    page_size: Type.Optional(pageSize('a4')),
    list_field_show: Type.Optional(FIELDS),
  },
  { additionalProperties: false },
);
export const BadgesPdfRequest = Type.Object(
  {
    checked_in: Type.Optional(
      Type.Union([Type.Boolean(), Type.Literal('all')], {
        description: 'which ticket holders: those checked in (true, the default), those not (false), or all (`all`)',
      }),
    ),
    page_size: Type.Optional(pageSize('a4')),
    list_field_show: Type.Optional(FIELDS),
  },
  { $id: 'BadgesPdfRequest', additionalProperties: false },
);

const DESIGN =
  "Each holder's badge is the event's badge form whose `badge-id` is the one of the holder's ticket, with its live " +
  "fields in order: the holder's answer to the attendee form field each names (`field-identifier`), or its sample " +
  'text when it names none, in its font, size, colour, weight, style, underline, letter case, alignment, rotation and ' +
  "margins (millimetres), on the form's size (the front end's `3 x 4 inch` and `4 x 6 inch`, turned for Landscape), " +
  'colour and background image. A QR field (custom field `QR`) draws a QR code of the ticket identifier, which the ' +
  'door scans, as on the ticket PDF; when it lists fields (`qr-custom-field`), a vCard of them as the reference ' +
  'writes it, whose `X-SOCIALPROFILE;TYPE=EVENTYAY` is the ticket identifier.';
const TASK =
  'Poll the task URL; a successful task gives `result.download_url` (a signed link; without its signature the file ' +
  'downloads with the token of one who runs the door) and marks the holders printed (`is-badge-printed`, ' +
  '`badge-printed-at`). No mail is sent on success; a failure is mailed to the requester.';
const WHO =
  "For the event's owner, organizers, coorganizers and registrars, and administrators; anyone else finds nothing " +
  '(404).';

/** The badge print routes, in the transfer face's scope (its task schemas). */
export async function badgePrintRoutes(app: FastifyInstance, queue: QueueTask) {
  app.addSchema(BadgesPdfRequest);
  const started = (codes: number[]) => ({
    200: Type.Ref(TaskStarted, { description: 'The print is under way' }),
    ...errorResponses(codes, {
      404: "No such ticket holder or event, or the caller does not run the event's door",
      422: 'Nothing to print: no badge form for the ticket, or no ticket holder with one',
    }),
  });

  app.get(
    `${API_PREFIX}/badge-forms/print-badge-pdf`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'printAttendeeBadge',
        summary: "Print a ticket holder's badge",
        description:
          "Starts a background task that prints one ticket holder's badge as a PDF, at the badge's size " +
          `(\`page_size=label\`) or on A4. An attendee_id that is not a number, or a holder whose ticket has no ` +
          `badge form, is refused (422) before anything is queued. ${DESIGN} ${TASK} ${WHO}`,
        querystring: PrintQuery,
        response: started([400, 401, 404, 422]),
      },
    },
    async (request) => {
      const query = request.query as Static<typeof PrintQuery>;
      const ctx = { caller: request.caller, db: app.db, request };
      const id = integerId(query.attendee_id);
      if (id === undefined) throw refused('attendee_id is not the id of a ticket holder', 'attendee_id');
      const holder = await holderOf(app.db, id);
      if (!holder) throw notFound('Attendee not found');
      await requireDoor(ctx, holder.eventId, 'Attendee not found');
      if (!(await designOf(app.db, holder.eventId, holder.badgeId)))
        throw refused(
          "The attendee's ticket has no badge form: design the ticket's badge before printing it",
          'attendee_id',
        );
      const badges: BadgePrint = {
        attendee: id,
        pageSize: query.page_size ?? 'label',
        fields: fieldList(query.list_field_show),
      };
      return queue(request, holder.eventId, { badges });
    },
  );

  /** The event's badges: those of the holders `checkedIn` names, refused (422) when there would be none. */
  const printEvent = async (
    request: FastifyRequest,
    options: { checkedIn?: CheckedIn; pageSize?: PageSize; fields?: string },
  ) => {
    const ctx = { caller: request.caller, db: app.db, request };
    const eventId = await eventIdNamed(ctx, (request.params as { event_id: string }).event_id);
    await requireDoor(ctx, eventId, 'Event not found');
    const checkedIn = options.checkedIn ?? 'true';
    if (!(await anyBadgeToPrint(app.db, eventId, checkedIn))) {
      const who = { true: 'checked in ', false: 'not checked in ', all: '' }[checkedIn];
      throw refused(`No ticket holder of this event ${who}holds a ticket with a badge form`, 'checked_in');
    }
    const badges: BadgePrint = { checkedIn, pageSize: options.pageSize ?? 'a4', fields: fieldList(options.fields) };
    return queue(request, eventId, { badges });
  };
  const params = Type.Object({
    event_id: Type.String({ maxLength: 64, description: 'id or identifier of the event' }),
  });
  const description =
    "Starts a background task that prints the event's badges as one PDF: of the ticket holders checked in (by " +
    'default), not checked in, or all, each of an order placed or completed (or of none), whose ticket has a badge ' +
    'form (the others are left out; when none is left, 422 before anything is queued). Holders come in the order ' +
    `they were added; on A4 a page holds badges of one size. ${DESIGN} ${TASK} ${WHO}`;
  app.post(
    `${API_PREFIX}/events/:event_id/export/badges/pdf`,
    {
      onRequest: requireLogin(app),
      // No body at all is the empty one: every option has its default.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: [TAG],
        operationId: 'exportEventBadgesPdf',
        summary: "Print the event's badges",
        description: `${description} The body is optional.`,
        consumes: ['application/json', 'application/vnd.api+json'],
        params,
        body: Type.Optional(Type.Ref(BadgesPdfRequest)),
        response: started([400, 401, 404, 413, 415, 422]),
      },
    },
    (request) => {
      const body = (request.body ?? {}) as Static<typeof BadgesPdfRequest>;
      const checkedIn = body.checked_in === undefined ? undefined : (String(body.checked_in) as CheckedIn);
      return printEvent(request, { checkedIn, pageSize: body.page_size, fields: body.list_field_show });
    },
  );
  app.get(
    `${API_PREFIX}/events/:event_id/export/badges/pdf`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'exportEventBadgesPdfByGet',
        summary: "Print the event's badges (GET)",
        description: `${description} The same as the POST, its options in the query.`,
        params,
        querystring: BadgesQuery,
        response: started([400, 401, 404, 422]),
      },
    },
    (request) => {
      const query = request.query as Static<typeof BadgesQuery>;
      return printEvent(request, {
        checkedIn: query.checked_in,
        pageSize: query.page_size,
        fields: query.list_field_show,
      });
    },
  );
}
