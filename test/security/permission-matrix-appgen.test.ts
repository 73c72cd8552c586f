/**
 * The permission matrix, the app generator (/api/api.php, the v2 /api/v2/... and the v2 form's POST /): public by design, so every caller gets the
 * same answer (a token changes nothing); every route the app serves, against permission-matrix.ts.
 * Also, as this is the lightest matrix file: the coverage check itself, on a route table changed by hand.
 */
import t from 'tap';
import { appWithRoutes, checkCoverage, coverageProblems, runMatrix, type Recipe } from './matrix.js';
import { buildCallers } from './matrix-world.js';

// Every caller asks for builds from the one test address: the per-address limit is not what this matrix is about.
const { app, routes } = await appWithRoutes(t, { APPGEN_RATE_PER_IP: '100' });

t.test('every app generator route has an entry', async (t) => checkCoverage(t, routes, 'appgen'));

t.test(
  'the coverage check names a route without an entry, an entry without a route, and a route of no face',
  async (t) => {
    const gone = /^(GET|HEAD) \/v1\/pages\/\{id\}$/;
    const changed = [
      ...routes.filter((k) => !gone.test(k)),
      'GET /v1/pages/{id}/history',
      'DELETE /cms/skills.json',
      'GET /status',
    ];
    const noFace = 'GET /status: a route of no face (add it to faceOf and MATRIX)';
    t.same(coverageProblems(routes, 'v1-read'), [], 'none for the app as it is');
    t.same(coverageProblems(changed, 'v1-read').sort(), [
      noFace,
      'GET /v1/pages/{id}/history: the app serves it, MATRIX has no entry',
      'GET /v1/pages/{id}: an entry in MATRIX, but the app serves no such route',
    ]);
    t.same(coverageProblems(changed, 'assistant'), [
      noFace,
      'DELETE /cms/skills.json: the app serves it, MATRIX has no entry',
    ]);
    t.same(
      coverageProblems([...routes, 'HEAD /v1/pages/{id}/preview'], 'v1-read'),
      ['HEAD /v1/pages/{id}/preview: the app serves it, MATRIX has no entry'],
      'a HEAD route without its GET twin needs an entry',
    );
  },
);

t.test('app generator routes x callers', async (t) => {
  const { tokens } = await buildCallers(app);
  let n = 0;
  const started = await app.inject({
    method: 'POST',
    url: '/api/v2/generate',
    payload: { email: 'polled@example.org', endpoint: 'https://api.example.org/v1/events/1' },
  });
  const build = JSON.parse(started.body).task_id as string;
  const request = (email: string) => ({
    json: { email, app_name: 'Open Summit', endpoint: 'https://api.example.org/v1/events/1' },
  });
  const RECIPES: Record<string, Recipe> = {
    // A mailbox per cell: the per-mailbox limit is not what this matrix is about.
    'POST /api/api.php': () => request(`maker${++n}@example.org`),
    'GET /api/api.php': () => ({}),
    'PUT /api/api.php': () => request('maker@example.org'),
    'PATCH /api/api.php': () => request('maker@example.org'),
    'DELETE /api/api.php': () => ({}),
    'POST /api/v2/generate': () => ({
      json: { email: `maker${++n}@example.org`, endpoint: 'https://api.example.org/v1/events/1' },
    }),
    'POST /': () => ({
      form: {
        email: `maker${++n}@example.org`,
        'data-source': 'api_endpoint',
        'api-endpoint': 'https://api.example.org/v1/events/1',
      },
    }),
    'GET /api/v2/app/{task_id}/status': () => ({ path: `/api/v2/app/${build}/status` }),
  };
  await runMatrix(t, app, 'appgen', {}, tokens, RECIPES);
});
