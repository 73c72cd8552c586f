/**
 * open-event-frontend `app/components/forms/admin/content/pages-form.js:37-40` asks the administrator
 * for a page path without a leading slash ("Path should not contain leading slash."), and
 * `app/routes/pages.js:20` finds the page of `/*path` by `findBy('url', params.path)` among
 * `cache.query('pages', 'page', {public: true})`. Pages must be stored and listed as written there.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const admin = await seedUser(app, { admin: true });

t.test('a page saved with the form is found by its path', async (t) => {
  // app/models/page.js: every attribute on save.
  const attributes = {
    name: 'Terms',
    title: 'Terms of use',
    url: 'legal/terms',
    description: '<p>Be kind.</p>',
    language: 'en',
    index: 0,
    place: 'footer',
  };
  const saved = await frontEnd(base, admin.token).adapter('POST', '/v1/pages', {
    body: { data: { type: 'page', attributes } },
  });
  t.equal(saved.status, 201);
  t.equal(saved.body.data.attributes.url, 'legal/terms', 'stored as written');
  const pages = await frontEnd(base).adapter('GET', '/v1/pages', { query: { public: true } });
  t.equal(pages.status, 200);
  t.match(
    pages.body.data.find((p: { attributes: { url: string } }) => p.attributes.url === 'legal/terms'),
    { attributes: { name: 'Terms' } },
    'the route finds it',
  );
  const scheme = await frontEnd(base, admin.token).adapter('POST', '/v1/pages', {
    body: { data: { type: 'page', attributes: { ...attributes, url: 'javascript:alert(1)' } } },
  });
  t.equal(scheme.status, 422, 'a path that a browser would read as a scheme is still refused');
});
