/**
 * The matrix's records of the image settings: the two image-size records (ids 1 and 2, seeded) and a custom
 * placeholder of the matrix's sub-topic; and how the matrix calls their write routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Recipe } from './matrix.js';
import { document, next, toOne, update } from './matrix-writes.js';

const IMAGE = 'https://example.com/placeholder.jpg';

/** Path ids: the image-size records and a placeholder of `subTopic`. */
export async function imageIds(app: FastifyInstance, subTopic: string): Promise<Record<string, string>> {
  const [placeholder] = await app.sql<{ id: number }[]>`
    insert into custom_placeholders (name, original_image_url, event_sub_topic_id)
    values ('Robots', ${IMAGE}, ${Number(subTopic)}) returning id`;
  return { 'event-image-sizes': '1', 'speaker-image-sizes': '2', 'custom-placeholders': String(placeholder!.id) };
}

export function imageRecipes(app: FastifyInstance, ids: Record<string, string>): Record<string, Recipe> {
  const placeholder = ids['custom-placeholders']!;
  const eventSizes = () => update('event-image-size', '1', { 'full-quality': 70 + (next() % 30) });
  const speakerSizes = () => update('speaker-image-size', '2', { 'icon-size-quality': 70 + (next() % 30) });
  const gone = async () => {
    const [row] = await app.sql<{ id: number }[]>`
      insert into custom_placeholders (name, original_image_url) values ('Gone', ${IMAGE}) returning id`;
    return { path: `/v1/custom-placeholders/${row!.id}` };
  };
  return {
    'PATCH /v1/settings': () => update('setting', '1', { tagline: `Events ${next()}` }),
    'PATCH /v1/event-image-sizes': eventSizes,
    'PATCH /v1/event-image-sizes/{id}': eventSizes,
    'PATCH /v1/speaker-image-sizes': speakerSizes,
    'PATCH /v1/speaker-image-sizes/{id}': speakerSizes,
    'POST /v1/custom-placeholders': () =>
      document('custom-placeholder', { name: `Placeholder ${next()}`, 'original-image-url': IMAGE }),
    'PATCH /v1/custom-placeholders/{id}': () => update('custom-placeholder', placeholder, { name: `Robots ${next()}` }),
    'DELETE /v1/custom-placeholders/{id}': gone,
    'PATCH /v1/custom-placeholders/{id}/relationships/event-sub-topic': () =>
      toOne('event-sub-topic', ids['event-sub-topics']!),
  };
}
