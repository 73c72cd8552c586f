/**
 * `GET /v1/admin/content/translations/all/`: the service's translation files as one zip (the reference's
 * app/api/admin_translations.py, which zips its gettext catalogues), for the admin content panel's Translations page.
 */
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { requirePanel } from '../../auth/panels.js';
import { API_PREFIX, errorResponses } from '../../jsonapi/index.js';
import { catalogue } from './catalogue.js';

/** The languages the front end offers translations for (app/routes/admin/content/translations.js): English. */
const LANGUAGES = ['en'];

export function translationsZip(): Buffer {
  const zip = new AdmZip();
  zip.addFile('messages.pot', Buffer.from(catalogue(), 'utf8'));
  for (const language of LANGUAGES)
    zip.addFile(`${language}/LC_MESSAGES/messages.po`, Buffer.from(catalogue(language), 'utf8'));
  return zip.toBuffer();
}

export default async function translationRoutes(app: FastifyInstance) {
  const contentPanel = requirePanel('content');
  app.get(
    `${API_PREFIX}/admin/content/translations/all/`,
    {
      onRequest: async (request) => {
        await app.authenticate(request);
        contentPanel(request);
      },
      schema: {
        tags: ['Translations'],
        operationId: 'downloadTranslations',
        summary: 'Download the translation files',
        description:
          'The gettext catalogues of the texts of the mails the service sends, as `translations.zip`: the template ' +
          '`messages.pot` and `<language>/LC_MESSAGES/messages.po` for each language (English, the source). ' +
          'Administrators and those the content panel is open to (401 without a login, 403 for anyone else).',
        response: {
          200: {
            description: 'The zip archive of the catalogues',
            content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } },
          },
          ...errorResponses([401, 403, 406], {}, { database: true }),
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('application/zip')
        .header('content-disposition', 'attachment; filename="translations.zip"')
        .send(translationsZip()),
  );
}
