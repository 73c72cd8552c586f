import { Type } from '@sinclair/typebox';
import { pages } from '../../../db/schema/index.js';
import { INT4_MAX, defineResource } from '../../jsonapi/index.js';
import { optionalText, requiredText } from '../attributes.js';
import { staffWritten } from '../staff-written.js';

export const pageResource = defineResource({
  type: 'page',
  path: 'pages',
  name: 'Page',
  tag: 'Pages',
  description:
    'A static page of the site (terms, privacy, about) linked from the footer or an event page. Everyone reads pages; administrators write them.',
  table: pages,
  attributes: {
    name: requiredText('name', 255),
    title: optionalText('title', 255),
    url: {
      column: 'url',
      schema: Type.String({
        minLength: 1,
        maxLength: 2048,
        // `//host` and `/\host` lead browsers to another site: a site path's second character is neither.
        // The Open Event front end writes paths without the leading slash (`terms`) and finds pages by
        // them; such a path holds no `:`, so it is never read as a scheme (`javascript:`).
        pattern: '^(/(?![/\\\\])[^\\s]*|https?://[^\\s]+|[^\\s:/\\\\?#][^\\s:\\\\]*)$',
        description: 'a site path such as /terms, or terms as the Open Event front end writes it, or an http(s) URL',
      }),
      required: true,
    },
    description: {
      column: 'description',
      schema: Type.String({ maxLength: 100_000, description: 'the page content' }),
      required: true,
    },
    language: optionalText('language', 35, 'language tag, e.g. en or pt-BR'),
    index: {
      column: 'index',
      schema: Type.Integer({
        minimum: 0,
        maximum: INT4_MAX,
        description: 'position of the page among its place (default 0)',
      }),
    },
    place: {
      column: 'place',
      schema: Type.Union([Type.Literal('footer'), Type.Literal('event'), Type.Null()], {
        description: 'where the page is linked',
      }),
    },
  },
  policy: staffWritten,
});
