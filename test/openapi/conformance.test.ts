/**
 * The conformance check that every test app runs (test/helpers/conformance.ts) must really refuse
 * answers outside openapi/openapi.json; otherwise "the contract and the behaviour cannot drift" would
 * rest on a check that never fails.
 */
import Fastify from 'fastify';
import t from 'tap';
import { checkConformance, conformanceErrors, documentPathOf } from '../helpers/conformance.js';
import { JSONAPI } from '../helpers/app.js';

const ERROR = JSON.stringify({
  errors: [{ status: '404', title: 'Not Found', detail: 'Object not found.' }],
  jsonapi: { version: '1.0' },
});

t.test('a declared answer passes; each kind of drift is named', async (t) => {
  const answer = { method: 'GET', route: '/v1/events/:id', contentType: JSONAPI };
  t.strictSame(
    conformanceErrors({ ...answer, status: 404, body: ERROR }),
    [],
    'a 404 error document of GET /v1/events/{id}',
  );
  t.match(conformanceErrors({ ...answer, route: '/v1/nowhere', status: 200, body: '{}' }), [
    /not in openapi\/openapi.json/,
  ]);
  t.match(conformanceErrors({ ...answer, status: 418, body: ERROR }), [/status not declared/]);
  t.match(conformanceErrors({ ...answer, status: 404, contentType: 'text/html', body: '<p>gone</p>' }), [
    /media type text\/html not declared/,
  ]);
  t.match(conformanceErrors({ ...answer, status: 404, body: JSON.stringify({ errors: 'none' }) }), [
    /GET \/v1\/events\/\{id\} 404: /,
  ]);
  t.match(conformanceErrors({ ...answer, status: 404, body: 'not json' }), [/not JSON/]);
});

t.test('Fastify routes map to the document paths, a final wildcard included', async (t) => {
  t.equal(documentPathOf('/v1/events/:id/sessions'), '/v1/events/{id}/sessions');
  t.equal(documentPathOf('/static/media/*'), '/static/media/{path}');
});

t.test('the hook reports an answer outside the contract and lets a conforming one pass', async (t) => {
  const app = Fastify({ logger: false });
  const problems: string[] = [];
  checkConformance(app, (problem) => problems.push(problem));
  app.get('/v1/events/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (id === 'drift')
      return reply
        .type(JSONAPI)
        .code(404)
        .send(JSON.stringify({ message: 'gone' }));
    return reply.type(JSONAPI).code(404).send(ERROR);
  });
  t.teardown(() => app.close());
  await app.inject({ url: '/v1/events/1' });
  t.strictSame(problems, [], 'the error document conforms');
  await app.inject({ url: '/v1/events/drift' });
  t.equal(problems.length, 1, 'the drifting answer is reported');
  t.match(problems[0], /GET \/v1\/events\/\{id\} 404/);
});
