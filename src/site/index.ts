/**
 * Site-wide routes of the event service that are no resource's declaration: the settings (one record in
 * two variants), the administrators' statistics (computed records) and sending an order's receipt.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import adminStatisticsRoutes from './admin-statistics/index.js';
import sendReceiptRoute from './send-receipt/index.js';
import settingsRoutes from './settings/index.js';

export const siteRoutes: ((app: FastifyInstance, options: { config: Config }) => Promise<void>)[] = [
  settingsRoutes,
  adminStatisticsRoutes,
  sendReceiptRoute,
];

export const siteTags = [
  {
    name: 'Settings',
    description: 'The site settings: one record (id 1), full for administrators, limited for everyone else.',
  },
  { name: 'Admin statistics', description: 'Counts for the administration dashboard; administrators only.' },
];
