import { Registry, type Model } from '../jsonapi/model.js';
import { resources } from '../resources/index.js';

/** Version of the archive layout this service writes; written into `meta.json`. */
export const FORMAT_VERSION = 1;

/** Media kinds an export may fetch into the archive, by the flag that asks for them. */
export type MediaFlag = 'image' | 'video' | 'audio' | 'document';

/** One JSON file of the archive: the resource it holds and the fields written first, in this order. */
export interface ArchiveFile {
  /** File name without `.json`; `aliases` are other names importers accept (the public formats). */
  name: string;
  aliases: string[];
  type: string;
  order: string[];
  /** URL fields whose files the export fetches under a flag, and the archive folder they go to. */
  media: { field: string; flag: MediaFlag; folder: string }[];
}

/** The files, in the order an import reads them (records refer only to files read before them). */
export const FILES: ArchiveFile[] = [
  {
    name: 'event',
    aliases: [],
    type: 'event',
    order: [
      'id', 'name', 'latitude', 'longitude', 'location_name', 'starts_at', 'ends_at', 'timezone', 'description',
      'original_image_url', 'logo_url', 'owner_name', 'owner_description', 'external_event_url', 'ticket_url', 'privacy',
      'event_type_id', 'event_topic_id', 'event_sub_topic_id', 'code_of_conduct',
    ],
    media: [
      { field: 'logo_url', flag: 'image', folder: 'images' },
      { field: 'original_image_url', flag: 'image', folder: 'images' },
    ],
  },
  { name: 'social_links', aliases: ['social-links', 'sociallinks'], type: 'social-link', order: ['id', 'name', 'link'], media: [] },
  { name: 'custom_forms', aliases: ['custom-forms', 'forms'], type: 'custom_form', order: ['id'], media: [] },
  { name: 'microlocations', aliases: [], type: 'microlocation', order: ['id', 'name', 'floor'], media: [] },
  {
    name: 'sponsors',
    aliases: [],
    type: 'sponsor',
    order: ['id', 'name', 'logo_url', 'level', 'type', 'url', 'description'],
    media: [{ field: 'logo_url', flag: 'image', folder: 'images/sponsors' }],
  },
  {
    name: 'speakers',
    aliases: [],
    type: 'speaker',
    order: [
      'id', 'name', 'email', 'mobile', 'photo_url', 'organisation', 'position', 'country', 'short_biography',
      'long_biography', 'website', 'twitter', 'facebook', 'github', 'linkedin',
    ],
    media: [{ field: 'photo_url', flag: 'image', folder: 'images/speakers' }],
  },
  { name: 'tracks', aliases: [], type: 'track', order: ['id', 'name', 'color', 'font_color'], media: [] },
  { name: 'session_types', aliases: ['session-types', 'sessiontypes'], type: 'session-type', order: ['id', 'name', 'length'], media: [] },
  {
    name: 'sessions',
    aliases: [],
    type: 'session',
    order: [
      'id', 'title', 'subtitle', 'short_abstract', 'long_abstract', 'starts_at', 'ends_at', 'session_type_id', 'track_id',
      'comments', 'language', 'slides_url', 'audio_url', 'video_url',
    ],
    media: [
      { field: 'slides_url', flag: 'document', folder: 'slides' },
      { field: 'audio_url', flag: 'audio', folder: 'audio' },
      { field: 'video_url', flag: 'video', folder: 'video' },
    ],
  },
];

/** `starts-at`, `startsAt` and `starts_at` all name the field `starts_at`. */
export const snake = (name: string) => name.replace(/-/g, '_').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** Registry of the event service's resources, for the attribute declarations both directions use. */
let registry: Registry | undefined;
export const modelOf = (type: string): Model => (registry ??= new Registry(resources)).get(type);

/**
 * A to-one relationship of a record kept as `<name>_id`: those to records of the archive are
 * rewritten on import; `event` is the new event; others (users, topics) are not carried over.
 */
export interface Link {
  field: string;
  column: string;
  /** The archive file of the target, when the target is one of the event's records. */
  file?: string;
}

export function linksOf(model: Model): Link[] {
  return model.links
    .filter((l) => l.name !== 'event')
    .map((l) => {
      const rel = model.relationships.get(l.name)!;
      const column = (rel as { column: string }).column;
      return { field: `${snake(l.name)}_id`, column, file: FILES.find((f) => f.type === rel.type && f.name !== 'event')?.name };
    });
}

/** The object with the fields of `order` first, then the others alphabetically. */
export function ordered(record: Record<string, unknown>, order: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in record) out[key] = record[key];
  for (const key of Object.keys(record).sort()) if (!(key in out)) out[key] = record[key];
  return out;
}
