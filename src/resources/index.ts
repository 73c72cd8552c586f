import type { ResourceSpec } from '../jsonapi/resource.js';
import { customFormResource } from './custom-forms/index.js';
import { eventCopyrightResource } from './event-copyrights/index.js';
import { eventTopicResource } from './event-topics/index.js';
import { eventResource } from './events/index.js';
import { microlocationResource } from './microlocations/index.js';
import { sessionTypeResource } from './session-types/index.js';
import { sessionResource } from './sessions/index.js';
import { socialLinkResource } from './social-links/index.js';
import { speakerResource } from './speakers/index.js';
import { sponsorResource } from './sponsors/index.js';
import { trackResource } from './tracks/index.js';
import { userResource } from './users/index.js';

/** Every JSON:API resource of the event service. */
export const resources: ResourceSpec[] = [
  userResource,
  eventResource,
  eventTopicResource,
  eventCopyrightResource,
  socialLinkResource,
  microlocationResource,
  sponsorResource,
  trackResource,
  sessionTypeResource,
  sessionResource,
  speakerResource,
  customFormResource,
];
