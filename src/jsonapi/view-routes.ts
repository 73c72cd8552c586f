import { Type } from '@sinclair/typebox';
import { listRows } from './operations.js';
import { parseListQuery, type RawQuery } from './query.js';
import { componentIds } from './resource-schemas.js';
import { pascal } from './names.js';
import type { RouteKit } from './routes.js';
import { jsonapiMember as jsonapi } from './schemas.js';
import { API_PREFIX } from './serialize.js';

/**
 * The named lists of a resource (`GET /v1/events/upcoming`): the list route, with the view's condition
 * on top of the policy's scope and the client's filter, and the view's order when the client sends none.
 */
export function registerViewRoutes(kit: RouteKit) {
  const { app, registry, model } = kit;
  const { spec } = model;
  for (const [name, view] of Object.entries(spec.views ?? {})) {
    const path = `${API_PREFIX}/${spec.path}/${name}`;
    const options = kit.options({
      operationId: `list${pascal(name)}${pascal(spec.path)}`,
      summary: view.summary,
      description: `${view.description} Sorted by \`${view.sort}\` unless \`sort\` says otherwise; pages, filter, include and sparse fieldsets as every list.`,
      querystring: Type.Object({ ...kit.queries.list.properties, ...view.params }, { additionalProperties: false }),
      success: { 200: Type.Ref(componentIds(model).list, { description: `A page of ${name} ${spec.path}` }) },
      errors: [400, 401, 403, 406],
    });
    app.get(path, view.volatile ? { ...options, config: { ...options.config, cache: false } } : options, async (request) => {
      const ctx = kit.ctx(request);
      spec.policy.list(ctx);
      const raw = request.query as RawQuery;
      const query = parseListQuery(registry, model, { ...raw, sort: raw.sort ?? view.sort }, kit.listAllMax);
      return { ...(await listRows(ctx, registry, model, query, path, raw, view.where(ctx, model.columns))), jsonapi };
    });
  }
}
