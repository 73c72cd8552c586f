import { Registry, type Model } from '../jsonapi/index.js';
import { resources } from '../resources/index.js';

/** Version of the archive layout this service writes; written into `meta.json`. */
export const FORMAT_VERSION = 1;

/** Media kinds an export may fetch into the archive, by the flag that asks for them. */
export type MediaFlag = 'image' | 'video' | 'audio' | 'document';

/**
 * One JSON file of the archive: the resource it holds, the fields written first (in this order), and
 * what the importer knows of the other formats that wrote such files (field names are snake_case).
 */
export interface ArchiveFile {
  /** File name without `.json`; `aliases` are other names importers accept (the public formats). */
  name: string;
  aliases: string[];
  type: string;
  order: string[];
  /** URL fields whose files the export fetches under a flag, and the archive folder they go to. */
  media: { field: string; flag: MediaFlag; folder: string }[];
  /** Older names of fields, by the name this format gives them; used when a record lacks the new name. */
  renamed?: Record<string, string>;
  /** Other spellings of enumeration values (lower case), by field, mapped to this service's values. */
  vocabulary?: Record<string, Record<string, string>>;
  /** Fields of other formats holding only what this service derives itself (image variants, caches): left out silently. */
  derived?: string[];
  /** Where other files nest records of this kind: used when the archive has no file of them. */
  nestedIn?: { file: string; field: string }[];
}

/** Image variants the public formats wrote next to an image; this service makes its own. */
const IMAGE_VARIANTS = ['large', 'thumbnail', 'small', 'icon'];
const SCHEDULE_TIMES = { start_time: 'starts_at', end_time: 'ends_at' };

/** The files, in the order an import reads them (records refer only to files read before them). */
export const FILES: ArchiveFile[] = [
  {
    name: 'event',
    aliases: [],
    type: 'event',
    order: [
      'id',
      'name',
      'latitude',
      'longitude',
      'location_name',
      'starts_at',
      'ends_at',
      'timezone',
      'description',
      'original_image_url',
      'logo_url',
      'owner_name',
      'owner_description',
      'external_event_url',
      'ticket_url',
      'privacy',
      'event_type_id',
      'event_topic_id',
      'event_sub_topic_id',
      'code_of_conduct',
    ],
    media: [
      { field: 'logo_url', flag: 'image', folder: 'images' },
      { field: 'original_image_url', flag: 'image', folder: 'images' },
    ],
    renamed: {
      ...SCHEDULE_TIMES,
      event_url: 'external_event_url',
      logo: 'logo_url',
      background_image: 'original_image_url',
      background_url: 'original_image_url',
      organizer_name: 'owner_name',
      organizer_description: 'owner_description',
      topic: 'event_topic',
      copyright: 'event_copyright',
      scheduled_published_on: 'schedule_published_on',
    },
    vocabulary: {
      // Open Event's states: Draft, Published, Call for papers, Completed (an event that took place was published).
      state: { completed: 'published', 'call for papers': 'published', live: 'published', unpublished: 'draft' },
      // An unknown privacy hides the event rather than publishing what its organizer may have kept private.
      privacy: { secret: 'private', hidden: 'private', unlisted: 'private', '*': 'private' },
    },
    derived: [...IMAGE_VARIANTS, 'placeholder_url', 'searchable_location_name', 'licence_details', 'version'],
  },
  {
    name: 'event_copyright',
    aliases: ['event-copyright', 'copyright'],
    type: 'event-copyright',
    order: ['id', 'holder', 'holder_url', 'licence', 'licence_url', 'year', 'logo_url'],
    media: [],
    renamed: { logo: 'logo_url' },
    nestedIn: [{ file: 'event', field: 'event_copyright' }],
  },
  {
    name: 'social_links',
    aliases: ['social-links', 'sociallinks'],
    type: 'social-link',
    order: ['id', 'name', 'link'],
    media: [],
    nestedIn: [{ file: 'event', field: 'social_links' }],
  },
  {
    name: 'tickets',
    aliases: [],
    type: 'ticket',
    order: ['id', 'name', 'type', 'price', 'quantity', 'min_order', 'max_order', 'sales_starts_at', 'sales_ends_at'],
    media: [],
  },
  {
    name: 'tax',
    aliases: ['taxes'],
    type: 'tax',
    order: ['id', 'name', 'rate', 'is_tax_included_in_price'],
    media: [],
    nestedIn: [{ file: 'event', field: 'tax' }],
  },
  {
    name: 'speakers_call',
    aliases: ['speakers-call', 'speakers_calls', 'speakers-calls', 'call_for_papers'],
    type: 'speakers-call',
    order: ['id', 'announcement', 'starts_at', 'soft_ends_at', 'ends_at', 'privacy', 'hash'],
    media: [],
    nestedIn: [{ file: 'event', field: 'speakers_call' }],
  },
  { name: 'custom_forms', aliases: ['custom-forms', 'forms'], type: 'custom_form', order: ['id'], media: [] },
  {
    name: 'microlocations',
    aliases: [],
    type: 'microlocation',
    order: ['id', 'name', 'floor'],
    media: [],
    nestedIn: [{ file: 'sessions', field: 'microlocation' }],
  },
  {
    name: 'sponsors',
    aliases: [],
    type: 'sponsor',
    order: ['id', 'name', 'logo_url', 'level', 'type', 'url', 'description'],
    media: [{ field: 'logo_url', flag: 'image', folder: 'images/sponsors' }],
    renamed: { sponsor_type: 'type', logo: 'logo_url' },
  },
  {
    name: 'speakers',
    aliases: [],
    type: 'speaker',
    order: [
      'id',
      'name',
      'email',
      'mobile',
      'photo_url',
      'organisation',
      'position',
      'country',
      'short_biography',
      'long_biography',
      'website',
      'twitter',
      'facebook',
      'github',
      'linkedin',
    ],
    media: [{ field: 'photo_url', flag: 'image', folder: 'images/speakers' }],
    renamed: { photo: 'photo_url', featured: 'is_featured' },
    derived: IMAGE_VARIANTS,
    nestedIn: [{ file: 'sessions', field: 'speakers' }],
  },
  {
    name: 'tracks',
    aliases: [],
    type: 'track',
    order: ['id', 'name', 'color', 'font_color'],
    media: [],
    nestedIn: [{ file: 'sessions', field: 'track' }],
  },
  {
    name: 'session_types',
    aliases: ['session-types', 'sessiontypes'],
    type: 'session-type',
    order: ['id', 'name', 'length'],
    media: [],
    nestedIn: [{ file: 'sessions', field: 'session_type' }],
  },
  {
    name: 'sessions',
    aliases: [],
    type: 'session',
    order: [
      'id',
      'title',
      'subtitle',
      'short_abstract',
      'long_abstract',
      'starts_at',
      'ends_at',
      'session_type_id',
      'track_id',
      'comments',
      'language',
      'slides_url',
      'audio_url',
      'video_url',
    ],
    media: [
      { field: 'slides_url', flag: 'document', folder: 'slides' },
      { field: 'audio_url', flag: 'audio', folder: 'audio' },
      { field: 'video_url', flag: 'video', folder: 'video' },
    ],
    renamed: { ...SCHEDULE_TIMES, name: 'title', slides: 'slides_url', video: 'video_url', audio: 'audio_url' },
    vocabulary: { state: { cancelled: 'canceled', approved: 'accepted', declined: 'rejected' } },
    nestedIn: [
      { file: 'speakers', field: 'sessions' },
      { file: 'tracks', field: 'sessions' },
    ],
  },
];

/** `starts-at`, `startsAt` and `starts_at` all name the field `starts_at`. */
export const snake = (name: string) =>
  name
    .replace(/-/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();

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

/**
 * To-one links no archive holds: an event's fee code (`discount-code`) is the administrators' record, hidden from the
 * event's organizers, and would name another event's code after an import.
 */
const NOT_EXPORTED = new Set(['event discount-code']);

export function linksOf(model: Model): Link[] {
  return model.links
    .filter((l) => l.name !== 'event' && !NOT_EXPORTED.has(`${model.spec.type} ${l.name}`))
    .map((l) => {
      const rel = model.relationships.get(l.name)!;
      const column = (rel as { column: string }).column;
      return {
        field: `${snake(l.name)}_id`,
        column,
        file: FILES.find((f) => f.type === rel.type && f.name !== 'event')?.name,
      };
    });
}

/** The object with the fields of `order` first, then the others alphabetically. */
export function ordered(record: Record<string, unknown>, order: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in record) out[key] = record[key];
  for (const key of Object.keys(record).sort()) if (!(key in out)) out[key] = record[key];
  return out;
}
