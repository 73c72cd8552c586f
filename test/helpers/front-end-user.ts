/**
 * The user record as ember-data saves it (open-event-frontend app/models/user.js,
 * app/serializers/user.js): every attribute not marked readOnly, as last read, with the changes
 * applied; an update leaves out `password`. Unset strings go out as null, unset booleans as false.
 */

/** app/models/user.js:14-67, in model order, without the readOnly ones (is-super-admin :17, facebook-id :48, created-at :50, last-accessed-at :52, is-rocket-chat-registered :69). */
export const USER_ATTRIBUTES = [
  'email',
  'password',
  'is-verified',
  'is-blocked',
  'is-profile-public',
  'is-admin',
  'is-user-owner',
  'is-user-organizer',
  'is-user-coorganizer',
  'is-user-track-organizer',
  'is-user-moderator',
  'is-user-registrar',
  'is-sales-admin',
  'is-marketer',
  'was-registered-with-order',
  'first-name',
  'last-name',
  'public-name',
  'details',
  'contact',
  'language-prefrence',
  'avatar-url',
  'icon-image-url',
  'small-image-url',
  'thumbnail-image-url',
  'original-image-url',
  'facebook-url',
  'instagram-url',
  'twitter-url',
  'google-plus-url',
  'deleted-at',
  'billing-contact-name',
  'billing-phone',
  'billing-country',
  'company',
  'billing-address',
  'billing-city',
  'billing-zip-code',
  'billing-tax-info',
  'billing-additional-info',
  'billing-state',
] as const;

const BOOLEAN = /^(is|was)-/;

/** `user.save()` of a loaded user (app/serializers/user.js:7-12): the body of the PATCH. */
export function userSave(id: string, read: Record<string, unknown>, changes: Record<string, unknown> = {}) {
  const attributes: Record<string, unknown> = {};
  for (const name of USER_ATTRIBUTES) {
    if (name === 'password') continue;
    const value = name in changes ? changes[name] : read[name];
    attributes[name] = value ?? (BOOLEAN.test(name) ? false : null);
  }
  return { data: { type: 'user', id, attributes } };
}
