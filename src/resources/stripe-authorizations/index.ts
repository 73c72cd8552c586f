import { Type } from '@sinclair/typebox';
import { stripeAuthorizations } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { Nullable, defineResource, unprocessable } from '../../jsonapi/index.js';
import { eventOf } from '../attributes.js';
import { inManagedEvent, namedEvent, requireRole } from '../events/access.js';

const NO_STRIPE = 'This server has no Stripe integration: Stripe payments cannot be authorized';

/**
 * The reference trades the auth code for keys at Stripe; this server has no Stripe account, so a create
 * is refused (after the organizer check) and the event's `stripe-authorization` stays empty.
 */
export const stripeAuthorizationResource = defineResource({
  type: 'stripe-authorization',
  path: 'stripe-authorizations',
  name: 'StripeAuthorization',
  tag: 'Stripe authorizations',
  description:
    "An event's Stripe Connect authorization. This server has no Stripe integration: a create or update by the " +
    "event's organizers answers 422, so none exists and an event's stripe-authorization is always null.",
  table: stripeAuthorizations,
  attributes: {
    'stripe-auth-code': {
      schema: Nullable(Type.String({ maxLength: 1024, description: 'the Stripe Connect code' })),
      writeOnly: true,
      write: () => ({}),
    },
    'stripe-publishable-key': { column: 'stripePublishableKey', schema: Nullable(Type.String()), readOnly: true },
  },
  relationships: { event: eventOf },
  policy: {
    scope: (ctx, t) => inManagedEvent(ctx.caller, t.eventId!),
    list: loggedIn,
    read: (ctx, row) => requireRole(ctx, row.eventId as number, 'organizer'),
    async create(ctx, input) {
      loggedIn(ctx);
      const named = input.relationships.event;
      await requireRole(ctx, namedEvent(named), 'organizer', `Related event "${String(named)}" not found`);
      throw unprocessable(NO_STRIPE, '/data/attributes/stripe-auth-code');
    },
    async update(ctx, row) {
      await requireRole(ctx, row.eventId as number, 'organizer');
      throw unprocessable(NO_STRIPE, '/data/attributes/stripe-auth-code');
    },
    delete: (ctx, row) => requireRole(ctx, row.eventId as number, 'organizer'),
  },
});
