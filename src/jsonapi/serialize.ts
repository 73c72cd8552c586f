import { LINK, PRIVATE, type Model } from './model.js';
import type { Fieldsets } from './query.js';
import type { Row } from './resource.js';

export const API_PREFIX = '/v1';

export interface Identifier {
  type: string;
  id: string;
}

export type Linkage = Identifier | null | Identifier[];

export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { links: { self: string; related: string }; data?: Linkage }>;
  links: { self: string };
}

export const selfLink = (model: Model, id: unknown) => `${API_PREFIX}/${model.spec.path}/${id}`;

/**
 * Turns a row into a resource object. To-one linkage comes from the row (see selectionFor); other
 * linkage only when the relationship was loaded (`linkage`), so no query runs here. Private
 * attributes appear only when the row says this caller may see them.
 */
export function toResource(model: Model, row: Row, fields: Fieldsets, linkage?: Record<string, Linkage>): ResourceObject {
  const only = fields.get(model.type);
  const self = selfLink(model, row.id);
  const attributes: Record<string, unknown> = {};
  const seesPrivate = row[PRIVATE] === true;
  for (const [wire, key] of model.readable) {
    if ((!only || only.has(wire)) && (seesPrivate || !model.private.has(wire))) attributes[wire] = row[key];
  }
  const relationships: ResourceObject['relationships'] = {};
  for (const [name, rel] of model.relationships) {
    if (only && !only.has(name)) continue;
    const entry: ResourceObject['relationships'][string] = {
      links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` },
    };
    if (linkage && name in linkage) entry.data = linkage[name];
    else if (rel.kind === 'toOne' && rel.column) {
      const id = row[`${LINK}${name}`];
      entry.data = id === null || id === undefined ? null : { type: rel.type, id: String(id) };
    }
    relationships[name] = entry;
  }
  return { type: model.type, id: String(row.id), attributes, relationships, links: { self } };
}
