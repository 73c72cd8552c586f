/**
 * Site-wide routes of the event service that are no resource's declaration: the settings (one record in
 * two variants), the administrators' statistics (computed records) and sending an order's receipt.
 */
import type { Face } from '../face.js';
import adminStatisticsRoutes from './admin-statistics/index.js';
import eventKindStatisticsRoutes from './admin-statistics/event-kinds.js';
import imageSizeRoutes from './image-sizes/index.js';
import sendReceiptRoute from './send-receipt/index.js';
import settingsRoutes from './settings/index.js';
import translationRoutes from './translations/index.js';

export const siteFace: Face = {
  tags: [
    {
      name: 'Settings',
      description: 'The site settings: one record (id 1), full for administrators, limited for everyone else.',
    },
    { name: 'Admin statistics', description: 'Counts for the administration dashboard; administrators only.' },
    {
      name: 'Translations',
      description: "The service's translation files (gettext catalogues of its mails' texts); the content panel's.",
    },
    {
      name: 'Image sizes',
      description:
        'The sizes and JPEG quality of image variants (event images and placeholders; speaker photos and avatars): ' +
        'everyone reads them, administrators change them.',
    },
  ],
  async routes(app, options) {
    for (const routes of [
      settingsRoutes,
      imageSizeRoutes,
      adminStatisticsRoutes,
      eventKindStatisticsRoutes,
      sendReceiptRoute,
      translationRoutes,
    ])
      await app.register(routes, options);
  },
};
