/**
 * What the blueprint replay (replay.test.ts) expects of each transaction besides a pass: the transactions
 * whose resource a later issue adds (waiting), the members of our answers a later issue adds, and the
 * transactions we answer differently on purpose. docs/blueprint.md explains both lists; the replay checks that
 * its tables are the ones `renderTables()` writes (`npx tsx test/blueprint/write-doc.ts` rewrites them).
 */

export type LaterIssue = 44;

export interface WaitingRule {
  /** The resource as the issue names it. */
  resource: string;
  issue: LaterIssue;
  /** Matched against `METHOD uri-template` of each transaction. */
  match: RegExp;
}

/** Transactions whose resource a later issue adds (issue 44 lists them): sent and reported, never counted as failing. */
export const WAITING: WaitingRule[] = [
  { resource: 'exhibitors', issue: 44, match: /\/exhibitors\b/ },
  { resource: 'FAQs and FAQ types', issue: 44, match: /\/faqs?\b|\/faq-types?\b/ },
  { resource: 'alternate e-mails of users', issue: 44, match: /\/user-emails\b|\/alternate-emails\b/ },
  { resource: 'event locations', issue: 44, match: /\/event-locations\b/ },
  { resource: 'favourite events', issue: 44, match: /\/user-favourite-events\b/ },
  { resource: 'event copy', issue: 44, match: /\/events\/\{[a-z_]+\}\/copy\b/ },
  { resource: 'fresh-login', issue: 44, match: /\/auth\/fresh-login\b/ },
  { resource: 'verify-password', issue: 44, match: /\/auth\/verify-password\b/ },
  { resource: 'token blacklist', issue: 44, match: /\/auth\/blacklist\b/ },
];

export interface WaitingMember {
  /** The JSON:API type of the record in our answer (`*` for any). */
  type: string;
  /** An attribute or relationship name. */
  member: string;
  resource: string;
  issue: LaterIssue;
}

/**
 * Members of the reference's documents that name a later issue's resource: missing from our answer, they do not
 * fail a transaction (the replay lists them under the transaction instead).
 */
export const WAITING_MEMBERS: WaitingMember[] = [
  { type: '*', member: 'faqs', resource: 'FAQs', issue: 44 },
  { type: '*', member: 'faq-types', resource: 'FAQ types', issue: 44 },
  { type: '*', member: 'alternate-emails', resource: 'alternate e-mails of users', issue: 44 },
];

export interface DifferentOnPurpose {
  /** The transaction's Dredd name. */
  transaction: string;
  /** The status we answer. */
  status: number;
  /** Why, in one sentence; docs/blueprint.md has the table. */
  reason: string;
}

/** Transactions we answer differently on purpose (stricter rules that protect someone): our status is checked instead. */
export const DIFFERENT_ON_PURPOSE: DifferentOnPurpose[] = [
  {
    transaction: 'Authentication > Token Refresh > Access Token Refresh for Web',
    status: 401,
    reason:
      'Refresh tokens travel in the body or the Authorization header and never in cookies, so no request is sent ' +
      'with credentials the page did not choose (no CSRF to guard against); the example sends its refresh token as a ' +
      'cookie with X-CSRF-Token, and our answer to the access token it carries instead is 401.',
  },
  {
    transaction: 'Users > Users Collection > Create User',
    status: 422,
    reason:
      'The example sends `avatar_url`, which is not a member of a user (the attribute is `avatar-url`, as the front end ' +
      'sends it): an unknown attribute is a 422 naming it, so a misspelt member is not silently dropped.',
  },
  {
    transaction: 'Users > User Details > Update User',
    status: 422,
    reason: 'As Create User: the example sends `avatar_url`.',
  },
  {
    transaction: 'Custom Placeholders > Custom Placeholders Collection > Create Custom Placeholder',
    status: 422,
    reason:
      'The example sends `original_image_url`, which is not a member of a custom placeholder (the attribute is ' +
      '`original-image-url`, as the front end sends it): an unknown attribute is a 422 naming it, and the image it ' +
      'requires is missing.',
  },
  {
    transaction: 'Custom Placeholders > Custom Placeholder Details > Update Custom Placeholder',
    status: 422,
    reason: 'As Create Custom Placeholder: the example sends `original_image_url`.',
  },
  {
    transaction: 'Settings > Settings Details > Update Settings',
    status: 422,
    reason:
      'The example sends values no service can run with (`paypal-mode` and `omise-mode` "development", ' +
      '`email-service` "example", `smtp-encryption` "example1234"): each is one of its choices, or mail and payments ' +
      'would fail later for every organizer instead of now for the administrator.',
  },
  {
    transaction: 'Message Settings > Message Setting Collection > List Message Settings',
    status: 200,
    reason:
      'The example lists records of type `message-settings`, its detail examples `message-setting`: the reference ' +
      "answers `message-setting` in both (its schema's type); so do we, and requests may spell it either way.",
  },
  {
    transaction: 'Group > Group Collection > Create Group',
    status: 403,
    reason:
      'The example sends a client-generated id ("1"); JSON:API 1.0 says a server that does not take them answers 403, ' +
      'and no client chooses the id of a record (the reference ignored it).',
  },
  {
    transaction: 'Sessions > Sessions Collection > Create Sessions',
    status: 422,
    reason:
      'The example writes members the server decides (created-at, submitted-at, last-modified-at, is-mail-sent): a ' +
      'speaker who could set submitted-at could date a proposal before the call for speakers closed. Read-only members ' +
      'are refused unless null (create) or unchanged (update).',
  },
  {
    transaction: 'Sessions > Sessions Details > Update Session',
    status: 422,
    reason:
      'As Create Sessions: the example changes created-at, submitted-at and the other members the server decides.',
  },
  {
    transaction: 'Roles > Roles Collection > Create Role',
    status: 422,
    reason:
      'The event roles are a fixed list (owner, organizer, coorganizer, track_organizer, registrar, moderator) whose ' +
      'names the permission rules use; a role an administrator adds or renames would grant nothing or silently ' +
      'change who may do what. The name is read-only (422), and no role is created, changed or deleted (403).',
  },
  {
    transaction: 'Roles > Role Details > Update Role',
    status: 422,
    reason: 'As Create Role: the role names are fixed.',
  },
  {
    transaction: 'Roles > Role Details > Delete Role',
    status: 403,
    reason: 'As Create Role: the role names are fixed.',
  },
  {
    transaction: 'Orders > Orders under a User > List all Orders under a User',
    status: 400,
    reason:
      'The example sorts orders by `name`, which orders do not have: an unknown sort key is a 400, as it was in the ' +
      "reference (flask-rest-jsonapi's InvalidSort), whose hooks skip this example.",
  },
  {
    transaction: 'Tickets > Tickets Collection > Create Ticket',
    status: 422,
    reason:
      'The example\'s ticket type is "VIP-ticket": a ticket is free, paid or donation, the kinds an order\'s amount is ' +
      'computed for (the reference stored any text, which its checkout then treated as neither paid nor free). An ' +
      'unknown type is a 422 naming it.',
  },
  {
    transaction: 'Tickets > Ticket Details > Update Ticket',
    status: 422,
    reason: 'As Create Ticket: the example\'s type "VIP-ticket".',
  },
  {
    transaction: 'Attendees > Attendee Details > Update Attendee',
    status: 422,
    reason:
      'The example writes pdf-url, the address of the ticket PDF the server makes: a client-written URL would send the ' +
      "holder's ticket link anywhere. Read-only members are refused unless unchanged.",
  },
  {
    transaction: 'Orders > Order Detail > Update Order',
    status: 403,
    reason:
      "The example changes the payment method of a paid order to PayPal: a placed or completed order's method is " +
      'settled (403), so a buyer cannot switch the method of an order the organizers already marked paid; on an open ' +
      'order, PayPal answers a 422 naming it (no payment provider is configured here).',
  },
  {
    transaction: 'Orders > Charge > Charge for an Order',
    status: 422,
    reason:
      'Stripe and PayPal cannot be reached from here: charging an open order answers a clear 422 naming the provider ' +
      '(the payment-provider boundary, src/resources/orders/payments.ts) instead of a charge nobody made; the order ' +
      'is paid by an offline method the event accepts.',
  },
  {
    transaction: 'Orders > Create Paypal payment > Create Paypal payment for an Order',
    status: 422,
    reason:
      'As Charge for an Order: opening a PayPal payment answers a 422 naming PayPal. (The blueprint leaves the /v1 ' +
      "out of the reference's path; the replay sends it to /v1/orders/{identifier}/create-paypal-payment.)",
  },
  {
    transaction: 'Stripe Authorization > Stripe Authorization Collection > Create Stripe Authorization',
    status: 422,
    reason:
      'Stripe cannot be reached from here: authorizing it answers a clear 422 naming Stripe, the payment-provider ' +
      'boundary issue 41 keeps, instead of storing an authorization code nobody checked.',
  },
  {
    transaction: 'Stripe Authorization > Stripe Authorization Details > Update Stripe Authorization',
    status: 422,
    reason: 'As Create Stripe Authorization.',
  },
];

export interface KnownMemberDifference {
  kind: 'on purpose' | 'mistake of the example';
  /** Matched against the transaction's name. */
  transactions: RegExp;
  /** Matched against the path of a finding (`data.type`, `data[0].attributes.x`). */
  path: RegExp;
  why: string;
}

/** Findings that fail nothing: the example is wrong, or we differ on purpose in that member only. */
export const KNOWN_MEMBER_DIFFERENCES: KnownMemberDifference[] = [
  {
    kind: 'on purpose',
    transactions: /^Custom Forms > /,
    path: /^data(\[0\])?\.type$/,
    why: 'the spec names the type `custom_form` (shared/spec/event-service.md, "Custom form"); `custom-form` is accepted in requests',
  },
  {
    kind: 'on purpose',
    transactions: /^Role Invites > /,
    path: /^data(\[0\])?\.attributes\.hash$/,
    why:
      "the reference shows the invite's token (`hash`) to whoever reads the invite, which lets an organizer's " +
      "co-workers accept it in the invitee's place; here only the mail holds the link, and only its SHA-256 is kept",
  },
  {
    kind: 'mistake of the example',
    transactions: /^Event Topics > Event Topic Details > Update Event Topic$/,
    path: /^data\.type$/,
    why: 'the example answers `event-type` for an event topic',
  },
  {
    kind: 'mistake of the example',
    transactions: /^Event Sub Topics > Event Sub Topic Details > Update Event Sub Topic$/,
    path: /^data\.type$/,
    why: 'the example answers `event-sub-type`, a type the reference does not have',
  },
  {
    kind: 'mistake of the example',
    transactions: /^Events > Event Details > Update Event$/,
    path: /^data\.attributes\.timezone$/,
    why: 'the example sends `Asia/Kolkata` and answers `Asia/Calcutta`, the same zone by its old name',
  },
  {
    kind: 'mistake of the example',
    transactions: /^Admin Sales > Sales by (Events|Organizers|Location) Details > /,
    path: /^data\[0\]\.attributes\.(starts_at|ends_at|first_name|last_name|location_name)$/,
    why:
      'the examples show these members with underscores (an old schema without dasherize); the reference and the ' +
      "front end's admin-sales models use starts-at, ends-at, first-name, last-name and location-name, which we answer",
  },
  {
    kind: 'on purpose',
    transactions: /^Orders > Create Order with on site Attendees > /,
    path: /^data\.attributes\.amount$/,
    why: 'the example sends and shows the amount null; the amount is computed by the server from the tickets sold (0 for its free ones)',
  },
  {
    kind: 'mistake of the example',
    transactions: /^Orders > Create Order with on site Attendees > /,
    path: /^data\.attributes\.payment-url$/,
    why:
      "the example shows a PayPal page for a free order; the reference's payment-url was a Stripe order's only, and no " +
      'payment provider is configured here, so orders have none',
  },
  {
    kind: 'mistake of the example',
    transactions: /^Pages > Page Collection > Page Sizes$/,
    path: /^data/,
    why: 'the example of the list of pages is a list of image sizes',
  },
];

/** The known difference a finding of a transaction is, if any. */
export const knownDifference = (transaction: string, path: string) =>
  KNOWN_MEMBER_DIFFERENCES.find((d) => d.transactions.test(transaction) && d.path.test(path));

/** The waiting rule a transaction falls under, if any. */
export const waitingFor = (method: string, uri: string): WaitingRule | undefined =>
  WAITING.find((rule) => rule.match.test(`${method} ${uri}`));

/** The later issue a member of a record of `type` waits for, if any. */
export const waitingMember = (type: string, member: string): WaitingMember | undefined =>
  WAITING_MEMBERS.find((w) => w.member === member && (w.type === '*' || w.type === type));
