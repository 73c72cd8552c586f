/**
 * Every route of the front end's app/router.js (open-event-frontend at e6f8b09a), as the URL a person opens,
 * its ids filled from the seeded world, with the role that uses it. A route whose resources a later issue
 * adds names what it waits for; the suite still opens it and reports it apart.
 */
import type { PageProblems, ProvokedAnswer } from '../helpers/front-end-browser.js';
import { type FrontEndWorld, ROLE_INVITE_TOKEN } from '../helpers/front-end-world.js';

export type Role = 'anonymous' | 'admin' | 'organizer' | 'coorganizer' | 'speaker' | 'attendee';

export interface RouteVisit {
  /** The router's name of the route (`events.view.tickets.orders.list`). */
  route: string;
  path: string;
  role: Role;
  /** The resource of a later issue the page needs, and the issue: the page is reported apart. */
  waiting?: string;
  /** An answer of 400 or above the visit provokes on purpose (a link with a made-up token). */
  provokes?: ProvokedAnswer;
}

const TOOLS = 'exhibitors, video channels, chat, group teams (issue 44)';

/**
 * The API paths of resources later issues add: a page whose only failing answers are these waits for them
 * (its page errors follow from those answers).
 */
export const LATER_RESOURCES: Array<[RegExp, string]> = [
  [/^\/v1\/(events\/[^/]+\/)?(exhibitors|video-channels|video-recordings|users-groups-roles)\b/, TOOLS],
  // The video stream's channel and moderators, the group's team roles.
  [/[?&]include=[^&]*\b(video-channel|moderators)\b/, TOOLS],
  [/^\/v1\/groups\/[^/?]+\?include=[^&]*\broles\b/, TOOLS],
];

/** What a page still waits for: its own mark, or the later issues' resources behind every answer of ours that failed. */
export function waitingFor(problems: PageProblems, marked?: string): string | undefined {
  if (marked) return marked;
  const later = problems.answers.map((a) => LATER_RESOURCES.find(([path]) => path.test(a.path))?.[1]);
  if (later.length && later.every(Boolean)) return [...new Set(later)].join('; ');
}

/** The visits of every route, in an order a person could click them (each role's pages together). */
export function routeVisits(w: FrontEndWorld): RouteVisit[] {
  const e = w.identifier;
  const ev = `/events/${e}`;
  const visit = (role: Role, route: string, path: string, waiting?: string): RouteVisit => ({
    route,
    path,
    role,
    ...(waiting ? { waiting } : {}),
  });
  const provoking = (visit: RouteVisit, method: string, path: RegExp, status: number): RouteVisit => ({
    ...visit,
    provokes: { method, path, status },
  });
  const anonymous = [
    visit('anonymous', 'index', '/'),
    visit('anonymous', 'register', '/register'),
    visit('anonymous', 'reset-password', '/reset-password'),
    visit('anonymous', 'attendee-app', '/attendee-app'),
    visit('anonymous', 'organizer-app', '/organizer-app'),
    visit('anonymous', 'pricing', '/pricing'),
    visit('anonymous', 'not-found', '/not-found'),
    visit('anonymous', 'pages', '/no-such-page'),
    visit('anonymous', 'explore.events', '/explore/events'),
    visit('anonymous', 'explore.groups', '/explore/groups'),
    visit('anonymous', 'group-public', `/g/${w.group}`),
    visit('anonymous', 'public.index', `/e/${e}`),
    visit('anonymous', 'public.sessions-index', `/e/${e}/sessions`),
    visit('anonymous', 'public.sessions.index', `/e/${e}/schedule`),
    visit('anonymous', 'public.session.view.index', `/e/${e}/session/${w.session}`),
    visit('anonymous', 'public.speaker.view', `/e/${e}/speaker/${w.speakerRecord}`),
    visit('anonymous', 'public.schedule', `/e/${e}/calendar`),
    visit('anonymous', 'public.coc', `/e/${e}/coc`),
    visit('anonymous', 'public.speakers', `/e/${e}/speakers`),
    visit('anonymous', 'public.cfs.index', `/e/${e}/cfs`),
    visit('anonymous', 'public.exhibition.index', `/e/${e}/exhibition`, TOOLS),
    visit('anonymous', 'login', '/login'),
    provoking(
      visit('anonymous', 'oauth', '/oauth/callback?code=not-a-code&provider=facebook'),
      'POST',
      /^\/v1\/auth\/oauth\/login\/facebook\b/,
      // No OAuth provider is configured here: 404, whatever the code.
      404,
    ),
    visit('anonymous', 'public.cfs.index', `/e/${e}/cfs/${w.speakersCallHash}`),
    visit('anonymous', 'public.exhibition.view', `/e/${e}/exhibition/1`, TOOLS),
    visit('anonymous', 'public.exhibition.video', `/e/${e}/exhibition/1/video`, TOOLS),
    provoking(visit('anonymous', 'verify', '/verify?token=not-a-token'), 'POST', /^\/v1\/auth\/verify-email\b/, 400),
  ];
  const attendee = [
    visit('attendee', 'account.profile', '/account/profile'),
    visit('attendee', 'account.password', '/account/password'),
    visit('attendee', 'account.email-preferences', '/account/email-preferences'),
    visit('attendee', 'account.applications', '/account/applications'),
    visit('attendee', 'account.danger-zone', '/account/danger-zone'),
    visit('attendee', 'account.billing.payment-info', '/account/billing/payment-info'),
    visit('attendee', 'my-tickets.upcoming.list', '/my-tickets/upcoming/completed'),
    visit('attendee', 'my-tickets.upcoming.list', '/my-tickets/upcoming/open'),
    visit('attendee', 'my-tickets.past', '/my-tickets/past/completed'),
    visit('attendee', 'my-groups.list', '/my-groups/list'),
    visit('attendee', 'my-groups.following', '/my-groups/following'),
    visit('attendee', 'group-invites', '/group-invites', TOOLS),
    // The invite's mailed link: the invitee, logged in, accepts and lands on the event's dashboard.
    visit('attendee', 'role-invites', `/role-invites?token=${ROLE_INVITE_TOKEN}`),
    visit('attendee', 'orders.new', `/orders/${w.openOrderIdentifier}/new`),
    visit('attendee', 'orders.view', `/orders/${w.orderIdentifier}/view`),
    visit('attendee', 'orders.pending', `/orders/${w.orderIdentifier}/pending`),
    visit('attendee', 'orders.expired', `/orders/${w.orderIdentifier}/expired`),
    visit('attendee', 'public.stream.view', `/e/${e}/video/main-hall/${w.videoStream}`, TOOLS),
    visit('attendee', 'public.chat', `/e/${e}/chat`, TOOLS),
    visit('attendee', 'public.stream.view.chat', `/e/${e}/video/main-hall/${w.videoStream}/chat`, TOOLS),
    visit('attendee', 'video-streams.view.index', `/video-streams/${w.videoStream}`, TOOLS),
    visit(
      'attendee',
      'video-streams.view.translation-channels',
      `/video-streams/${w.videoStream}/translation-channels`,
      TOOLS,
    ),
    visit('attendee', 'logout', '/logout'),
  ];
  const speaker = [
    // A user's own schedule (the sessions they marked; favourites are private to their user and the organizers).
    visit('speaker', 'public.sessions.user.view', `/e/${e}/schedule/user/${w.speaker.id}`),
    visit('speaker', 'public.session.view.user.view', `/e/${e}/session/${w.session}/user/${w.speaker.id}`),
    visit('speaker', 'my-sessions.list', '/my-sessions/upcoming'),
    visit('speaker', 'my-sessions.list', '/my-sessions/past'),
    visit('speaker', 'public.cfs.index', `/e/${e}/cfs`),
    visit('speaker', 'public.cfs.new-speaker', `/e/${e}/cfs/new-speaker`),
    visit('speaker', 'public.cfs.new-session', `/e/${e}/cfs/new-session`),
    visit('speaker', 'public.cfs.view-speaker', `/e/${e}/cfs/speaker/${w.speakerRecord}`),
    visit('speaker', 'public.cfs.edit-speaker', `/e/${e}/cfs/speaker/${w.speakerRecord}/edit`),
    visit('speaker', 'public.cfs.view-session', `/e/${e}/cfs/session/${w.session}`),
    visit('speaker', 'public.cfs.edit-session', `/e/${e}/cfs/session/${w.session}/edit`),
    visit('speaker', 'public.speaker-invite.view-session', `/e/${e}/speaker-invite/${w.speakerInvite}/session`),
  ];
  const organizer = [
    visit('organizer', 'create', '/create'),
    visit('organizer', 'events.list', '/events/live'),
    visit('organizer', 'events.list', '/events/draft'),
    // The owner's invoices of the platform's fee (the world's event has one due and one paid).
    visit('organizer', 'account.billing.invoices.list', '/account/billing/invoices/all'),
    visit('organizer', 'events.list', '/events/past'),
    visit('organizer', 'events.import', '/events/import'),
    visit('organizer', 'events.view.index', ev),
    visit('organizer', 'events.view.edit.basic-details', `${ev}/edit/basic-details`),
    visit('organizer', 'events.view.edit.other-details', `${ev}/edit/other-details`),
    visit('organizer', 'events.view.edit.sponsors', `${ev}/edit/sponsors`),
    visit('organizer', 'events.view.edit.sessions-speakers', `${ev}/edit/sessions-speakers`),
    visit('organizer', 'events.view.edit.attendee', `${ev}/edit/attendee`),
    visit('organizer', 'events.view.edit.badge', `${ev}/edit/badge`),
    visit('organizer', 'events.view.settings.index', `${ev}/settings`),
    visit('organizer', 'events.view.settings.export', `${ev}/settings/export`),
    visit('organizer', 'events.view.settings.options', `${ev}/settings/options`),
    visit('organizer', 'events.view.sessions.list', `${ev}/sessions/all`),
    visit('organizer', 'events.view.sessions.list', `${ev}/sessions/pending`),
    visit('organizer', 'events.view.sessions.list', `${ev}/sessions/withdrawn`),
    visit('organizer', 'events.view.sessions.create', `${ev}/sessions/create`),
    visit('organizer', 'events.view.session.view', `${ev}/session/${w.session}`),
    visit('organizer', 'events.view.session.edit', `${ev}/session/${w.session}/edit`),
    visit('organizer', 'events.view.tickets.index', `${ev}/tickets`),
    visit('organizer', 'events.view.tickets.orders.list', `${ev}/tickets/orders/placed`),
    visit('organizer', 'events.view.tickets.orders.list', `${ev}/tickets/orders/all`),
    visit('organizer', 'events.view.tickets.attendees.list', `${ev}/tickets/attendees/all`),
    visit('organizer', 'events.view.tickets.add-order', `${ev}/tickets/add-order`),
    visit('organizer', 'events.view.tickets.order-form', `${ev}/tickets/order-form`),
    visit('organizer', 'events.view.tickets.discount-codes.list', `${ev}/tickets/discount-codes/active`),
    visit('organizer', 'events.view.tickets.discount-codes.create', `${ev}/tickets/discount-codes/create`),
    visit('organizer', 'events.view.tickets.access-codes.list', `${ev}/tickets/access-codes/active`),
    visit('organizer', 'events.view.tickets.access-codes.create', `${ev}/tickets/access-codes/create`),
    visit(
      'organizer',
      'events.view.tickets.discount-codes.edit',
      `${ev}/tickets/discount-codes/${w.discountCode}/edit`,
    ),
    visit('organizer', 'events.view.tickets.access-codes.edit', `${ev}/tickets/access-codes/${w.accessCode}/edit`),
    visit('organizer', 'events.view.speakers.list', `${ev}/speakers/all`),
    visit('organizer', 'events.view.speakers.list', `${ev}/speakers/without_session`),
    visit('organizer', 'events.view.speakers.create', `${ev}/speakers/create`),
    visit('organizer', 'events.view.speakers.reorder', `${ev}/speakers/reorder`),
    visit('organizer', 'events.view.speaker.view', `${ev}/speaker/${w.speakerRecord}`),
    visit('organizer', 'events.view.speaker.edit', `${ev}/speaker/${w.speakerRecord}/edit`),
    visit('organizer', 'events.view.documents', `${ev}/documents`),
    visit('organizer', 'events.view.tags', `${ev}/tags`),
    visit('organizer', 'events.view.chat', `${ev}/chat`, TOOLS),
    visit('organizer', 'events.view.videoroom.list', `${ev}/video/all`, TOOLS),
    visit('organizer', 'events.view.videoroom.create', `${ev}/video/create`, TOOLS),
    visit('organizer', 'events.view.videoroom.edit', `${ev}/video/${w.videoStream}/edit`, TOOLS),
    visit('organizer', 'events.view.scheduler', `${ev}/scheduler`),
    visit('organizer', 'events.view.team.index', `${ev}/team`),
    visit('organizer', 'events.view.team.permissions', `${ev}/team/permissions`),
    visit('organizer', 'events.view.exhibitors.list', `${ev}/exhibitors/list`, TOOLS),
    visit('organizer', 'events.view.exhibitors.create', `${ev}/exhibitors/create`, TOOLS),
    visit('organizer', 'events.view.exhibitors.reorder', `${ev}/exhibitors/reorder`, TOOLS),
    visit('organizer', 'events.view.exhibitors.edit', `${ev}/exhibitors/1/edit`, TOOLS),
    visit('organizer', 'groups.create', '/groups/create'),
    visit('organizer', 'groups.edit.events', `/groups/edit/${w.group}/events`),
    visit('organizer', 'groups.edit.settings', `/groups/edit/${w.group}/settings`),
    visit('organizer', 'groups.edit.followers', `/groups/edit/${w.group}/followers`),
    visit('organizer', 'groups.team.index', `/groups/${w.group}/team`, TOOLS),
    visit('organizer', 'groups.team.permissions', `/groups/${w.group}/team/permissions`, TOOLS),
  ];
  const coorganizer = [
    visit('coorganizer', 'events.list', '/events/live'),
    visit('coorganizer', 'events.view.index', ev),
    visit('coorganizer', 'events.view.sessions.list', `${ev}/sessions/all`),
    visit('coorganizer', 'events.view.speakers.list', `${ev}/speakers/all`),
    visit('coorganizer', 'events.view.tickets.attendees.list', `${ev}/tickets/attendees/all`),
  ];
  const u = w.attendee.id;
  const admin = [
    visit('admin', 'admin.index', '/admin'),
    visit('admin', 'admin.events.list', '/admin/events/live'),
    visit('admin', 'admin.events.list', '/admin/events/draft'),
    visit('admin', 'admin.events.list', '/admin/events/past'),
    visit('admin', 'admin.events.list', '/admin/events/deleted'),
    visit('admin', 'admin.events.import', '/admin/events/import'),
    visit('admin', 'admin.sales.index', '/admin/sales/live'),
    visit('admin', 'admin.sales.index', '/admin/sales/past'),
    visit('admin', 'admin.sales.organizers', '/admin/sales/organizers'),
    visit('admin', 'admin.sales.marketer', '/admin/sales/marketer'),
    visit('admin', 'admin.sales.locations', '/admin/sales/locations'),
    visit('admin', 'admin.sales.invoices', '/admin/sales/invoices'),
    visit('admin', 'admin.sales.revenue', '/admin/sales/revenue'),
    visit('admin', 'admin.sales.discounted-events', '/admin/sales/discounted-events'),
    visit('admin', 'admin.sessions.list', '/admin/sessions/all'),
    visit('admin', 'admin.sessions.list', '/admin/sessions/accepted'),
    visit('admin', 'admin.sessions.list', '/admin/sessions/deleted'),
    visit('admin', 'admin.users.list', '/admin/users/active'),
    visit('admin', 'admin.users.list', '/admin/users/inactive'),
    visit('admin', 'admin.users.list', '/admin/users/deleted'),
    visit('admin', 'admin.users.view.index', `/admin/users/${u}`),
    visit('admin', 'admin.users.view.sessions.list', `/admin/users/${u}/sessions/upcoming`),
    visit('admin', 'admin.users.view.events.list', `/admin/users/${u}/events/live`),
    visit('admin', 'admin.users.view.account.profile', `/admin/users/${u}/account/profile`),
    visit('admin', 'admin.users.view.account.applications', `/admin/users/${u}/account/applications`),
    visit('admin', 'admin.users.view.account.email-preferences', `/admin/users/${u}/account/email-preferences`),
    visit('admin', 'admin.users.view.tickets.list', `/admin/users/${u}/tickets/upcoming`),
    visit('admin', 'admin.video.channels.index', '/admin/video/channels', TOOLS),
    visit('admin', 'admin.video.channels.create', '/admin/video/channels/create', TOOLS),
    visit('admin', 'admin.video.channels.edit', '/admin/video/channels/1/edit', TOOLS),
    visit('admin', 'admin.video.recordings', '/admin/video/recordings', TOOLS),
    visit('admin', 'admin.permissions.event-roles', '/admin/permissions/event-roles'),
    visit('admin', 'admin.permissions.system-roles', '/admin/permissions/system-roles'),
    visit('admin', 'admin.reports.kubernetes-server-logs', '/admin/reports/kubernetes-server-logs'),
    visit('admin', 'admin.reports.system-logs.activity-logs', '/admin/reports/system-logs/activity-logs'),
    visit('admin', 'admin.reports.system-logs.mail-logs', '/admin/reports/system-logs/mail-logs'),
    visit('admin', 'admin.reports.system-logs.notification-logs', '/admin/reports/system-logs/notification-logs'),
    visit('admin', 'admin.messages', '/admin/messages'),
    visit('admin', 'admin.settings.index', '/admin/settings'),
    visit('admin', 'admin.settings.social-media', '/admin/settings/social-media'),
    visit('admin', 'admin.settings.microlocations', '/admin/settings/microlocations'),
    visit('admin', 'admin.settings.microservices', '/admin/settings/microservices'),
    visit('admin', 'admin.settings.images', '/admin/settings/images'),
    visit('admin', 'admin.settings.analytics', '/admin/settings/analytics'),
    visit('admin', 'admin.settings.payment-gateway', '/admin/settings/payment-gateway'),
    visit('admin', 'admin.settings.ticket-fees', '/admin/settings/ticket-fees'),
    visit('admin', 'admin.settings.billing', '/admin/settings/billing'),
    visit('admin', 'admin.settings.frontpage', '/admin/settings/frontpage'),
    visit('admin', 'admin.content.index', '/admin/content'),
    visit('admin', 'admin.content.social-links', '/admin/content/social-links'),
    visit('admin', 'admin.content.pages', '/admin/content/pages'),
    visit('admin', 'admin.content.system-images.list', `/admin/content/system-images/${w.topic}`),
    visit('admin', 'admin.content.translations', '/admin/content/translations'),
    visit('admin', 'admin.content.events', '/admin/content/events'),
    visit('admin', 'admin.groups.list', '/admin/groups/live'),
    visit('admin', 'admin.groups.list', '/admin/groups/deleted'),
    visit('admin', 'event-invoice.review', `/event-invoice/${w.invoices.due}/review`),
    visit('admin', 'event-invoice.paid', `/event-invoice/${w.invoices.paid}/paid`),
  ];
  return [...anonymous, ...attendee, ...speaker, ...organizer, ...coorganizer, ...admin];
}
