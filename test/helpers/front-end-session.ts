/**
 * open-event-frontend's session record as ember-data serialises it on `session.save()`: every attribute
 * of the model that is not readOnly (app/serializers/application.js:16-21), unset strings and numbers as
 * null. Used by the call-for-speakers tests (routes-public-cfs, controllers-public-cfs-view-session).
 */

/**
 * app/models/session.js:15-48, in order: every attr (none is readOnly), average-rating and
 * favourite-count among them (numbers the server computes; the front end sends back what it read).
 */
export const SESSION_ATTRIBUTES = [
  'title',
  'subtitle',
  'starts-at',
  'ends-at',
  'short-abstract',
  'long-abstract',
  'language',
  'level',
  'comments',
  'state',
  'website',
  'twitter',
  'facebook',
  'github',
  'gitlab',
  'linkedin',
  'instagram',
  'slides',
  'video-url',
  'audio-url',
  'signup-url',
  'send-email',
  'mastodon',
  'is-locked',
  'is-mail-sent',
  'created-at',
  'deleted-at',
  'submitted-at',
  'last-modified-at',
  'complex-field-values',
  'average-rating',
  'favourite-count',
];

/** The record as ember-data holds it after reading `attributes`: the model's attrs, unset ones as null. */
export const saved = (names: string[], attributes: Record<string, unknown>) =>
  Object.fromEntries(names.map((n) => [n, attributes[n] ?? null]));
