/**
 * The permission matrix, the app generator (/api/api.php): public by design, so every caller gets the
 * same answer (a token changes nothing); every route the app serves, against permission-matrix.ts.
 */
import t from 'tap';
import { appWithRoutes, checkCoverage, coverageProblems, runMatrix, type Recipe } from './matrix.js';
import { buildCallers } from './matrix-world.js';

const { app, routes } = await appWithRoutes(t);

t.test('every app generator route has an entry', async (t) => checkCoverage(t, routes, 'appgen'));

t.test('the coverage check names a route without an entry, an entry without a route, and a route of no face', async (t) => {
  const changed = [...routes.filter((k) => k !== 'GET /v1/pages/{id}'), 'GET /v1/pages/{id}/history', 'DELETE /cms/skills.json', 'GET /metrics'];
  t.same(coverageProblems(routes, 'v1-read'), [], 'none for the app as it is');
  t.same(coverageProblems(changed, 'v1-read').sort(), [
    'GET /metrics: a route of no face (add it to faceOf and MATRIX)',
    'GET /v1/pages/{id}/history: the app serves it, MATRIX has no entry',
    'GET /v1/pages/{id}: an entry in MATRIX, but the app serves no such route',
  ]);
  t.same(coverageProblems(changed, 'assistant'), [
    'GET /metrics: a route of no face (add it to faceOf and MATRIX)',
    'DELETE /cms/skills.json: the app serves it, MATRIX has no entry',
  ]);
  t.same(coverageProblems([...routes, 'HEAD /v1/pages/{id}/preview'], 'v1-read'), ['HEAD /v1/pages/{id}/preview: the app serves it, MATRIX has no entry'], 'a HEAD route without its GET twin needs an entry');
});

t.test('app generator routes x callers', async (t) => {
  const { tokens } = await buildCallers(app);
  let n = 0;
  // A mailbox per cell: the per-mailbox limit is not what this matrix is about.
  const build: Recipe = () => ({ json: { email: `maker${++n}@example.org`, app_name: 'Open Summit', endpoint: 'https://api.example.org/v1/events/1' } });
  const other: Recipe = () => ({ json: { email: 'maker@example.org', app_name: 'Open Summit', endpoint: 'https://api.example.org/v1/events/1' } });
  const RECIPES: Record<string, Recipe> = {
    'POST /api/api.php': build,
    'GET /api/api.php': () => ({}),
    'PUT /api/api.php': other,
    'PATCH /api/api.php': other,
    'DELETE /api/api.php': () => ({}),
  };
  await runMatrix(t, app, 'appgen', {}, tokens, RECIPES);
});
