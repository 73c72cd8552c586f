import type { Face } from '../face.js';
import type { ResourceSpec } from '../jsonapi/index.js';
import { attendeeResource } from './attendees/index.js';
import { customFormResource } from './custom-forms/index.js';
import { customPlaceholderResource } from './custom-placeholders/index.js';
import { eventCopyrightResource } from './event-copyrights/index.js';
import { eventTopicResource } from './event-topics/index.js';
import { eventTypeResource } from './event-types/index.js';
import { eventSubTopicResource } from './event-sub-topics/index.js';
import { eventResource } from './events/index.js';
import { notificationResource } from './notifications/index.js';
import { microlocationResource } from './microlocations/index.js';
import { orderResource } from './orders/index.js';
import { pageResource } from './pages/index.js';
import { roleInviteResource } from './role-invites/index.js';
import orderRoutes from './orders/routes.js';
import checkoutRoutes from './orders/checkout.js';
import chargeRoutes from './orders/charges.js';
import orderDocumentRoutes from './orders/documents/routes.js';
import roleInviteRoutes from './role-invites/routes.js';
import { roleResource } from './roles/index.js';
import { customSystemRoleResource } from './custom-system-roles/index.js';
import { panelPermissionResource } from './panel-permissions/index.js';
import { userPermissionResource } from './user-permissions/index.js';
import { serviceResource } from './services/index.js';
import { eventRolePermissionResource } from './event-role-permissions/index.js';
import sessionRoutes from './sessions/routes.js';
import ticketAvailabilityRoute from './tickets/availability.js';
import attendeeStateRoute from './attendees/states.js';
import attendeeSearchRoute from './attendees/search.js';
import scanRoute from './user-check-ins/scan.js';
import registrationStatsRoute from './user-check-ins/stats.js';
import badgeFieldsOfTicketRoute from './badge-forms/by-ticket.js';
import { sessionTypeResource } from './session-types/index.js';
import { sessionResource } from './sessions/index.js';
import { socialLinkResource } from './social-links/index.js';
import { speakerResource } from './speakers/index.js';
import { sponsorResource } from './sponsors/index.js';
import { speakersCallResource } from './speakers-calls/index.js';
import { stripeAuthorizationResource } from './stripe-authorizations/index.js';
import { taxResource } from './taxes/index.js';
import { ticketFeeResource } from './ticket-fees/index.js';
import { ticketTagResource } from './ticket-tags/index.js';
import { stationResource } from './stations/index.js';
import { stationStorePaxResource } from './station-store-paxs/index.js';
import { userCheckInResource } from './user-check-ins/index.js';
import { badgeFormResource } from './badge-forms/index.js';
import { badgeFieldFormResource } from './badge-field-forms/index.js';
import { tagResource } from './tags/index.js';
import { customFormOptionResource } from './custom-form-options/index.js';
import { discountCodeResource } from './discount-codes/index.js';
import { accessCodeResource } from './access-codes/index.js';
import { ticketResource } from './tickets/index.js';
import { trackResource } from './tracks/index.js';
import checkEmailRoute from './users/check-email.js';
import userIdRoute from './users/user-id.js';
import { userResource } from './users/index.js';
import { feedbackResource } from './feedbacks/index.js';
import { userFavouriteSessionResource } from './user-favourite-sessions/index.js';
import { speakerInviteResource } from './speaker-invites/index.js';
import speakerInviteRoutes from './speaker-invites/routes.js';
import { videoStreamResource } from './video-streams/index.js';
import hasStreamsRoute from './video-streams/has-streams.js';
import { groupResource } from './groups/index.js';
import { userFollowGroupResource } from './user-follow-groups/index.js';
import { usersEventsRoleResource } from './users-events-roles/index.js';
import { eventStatisticsGeneralResource } from './statistics/event-statistics-general.js';
import { orderStatisticsEventResource } from './statistics/order-statistics-event.js';
import { orderStatisticsTicketResource } from './statistics/order-statistics-ticket.js';
import { importJobResource } from './import-jobs/index.js';
import {
  adminSalesByEventsResource,
  adminSalesByOrganizersResource,
  adminSalesFeesResource,
  adminSalesInvoicesResource,
} from './admin-sales/index.js';
import adminSalesRoutes from './admin-sales/routes.js';
import { eventInvoiceResource } from './event-invoices/index.js';
import eventInvoiceRoutes from './event-invoices/routes.js';
import { messageSettingResource } from './message-settings/index.js';
import { emailNotificationResource } from './email-notifications/index.js';
import { mailResource } from './mails/index.js';
import { activityResource } from './activities/index.js';

/** Every JSON:API resource of the event service. */
export const resources: ResourceSpec[] = [
  userResource,
  eventResource,
  eventTopicResource,
  eventTypeResource,
  eventSubTopicResource,
  customPlaceholderResource,
  eventCopyrightResource,
  socialLinkResource,
  microlocationResource,
  sponsorResource,
  trackResource,
  sessionTypeResource,
  sessionResource,
  speakerResource,
  customFormResource,
  orderResource,
  pageResource,
  notificationResource,
  ticketResource,
  taxResource,
  ticketFeeResource,
  ticketTagResource,
  tagResource,
  customFormOptionResource,
  discountCodeResource,
  accessCodeResource,
  speakersCallResource,
  stripeAuthorizationResource,
  attendeeResource,
  feedbackResource,
  userFavouriteSessionResource,
  speakerInviteResource,
  videoStreamResource,
  groupResource,
  userFollowGroupResource,
  roleResource,
  usersEventsRoleResource,
  customSystemRoleResource,
  panelPermissionResource,
  userPermissionResource,
  serviceResource,
  eventRolePermissionResource,
  roleInviteResource,
  eventStatisticsGeneralResource,
  orderStatisticsEventResource,
  orderStatisticsTicketResource,
  importJobResource,
  adminSalesByEventsResource,
  adminSalesByOrganizersResource,
  adminSalesFeesResource,
  adminSalesInvoicesResource,
  eventInvoiceResource,
  stationResource,
  stationStorePaxResource,
  userCheckInResource,
  badgeFormResource,
  badgeFieldFormResource,
  messageSettingResource,
  emailNotificationResource,
  mailResource,
  activityResource,
];

/**
 * Routes of resources beyond their CRUD (actions, computed lists), under their resources' tags; the
 * site-wide ones are in src/site/.
 */
export const resourceRoutesFace: Face = {
  tags: [],
  async routes(app, options) {
    for (const routes of [
      sessionRoutes,
      checkEmailRoute,
      userIdRoute,
      speakerInviteRoutes,
      hasStreamsRoute,
      roleInviteRoutes,
      orderRoutes,
      checkoutRoutes,
      chargeRoutes,
      orderDocumentRoutes,
      ticketAvailabilityRoute,
      attendeeStateRoute,
      attendeeSearchRoute,
      scanRoute,
      registrationStatsRoute,
      adminSalesRoutes,
      eventInvoiceRoutes,
      badgeFieldsOfTicketRoute,
    ])
      await app.register(routes, options);
  },
};
