/**
 * Tickets made through the API before a test begins, with the body the front end's ticket form saves
 * (ticketAttributes): what the code, order and document tests sell, discount and print.
 */
import type { FastifyInstance } from 'fastify';
import { create, rel } from './events.js';
import { ticketAttributes } from './ticket-bodies.js';

/** POSTs a ticket of `event` as `token` (ticketAttributes with `over`) and answers its id, failing loudly otherwise. */
export const createTicket = (app: FastifyInstance, token: string, event: string, over: Record<string, unknown> = {}) =>
  create(app, token, 'tickets', 'ticket', ticketAttributes(over), { event: rel('event', event) });
