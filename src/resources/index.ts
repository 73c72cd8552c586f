import type { ResourceSpec } from '../jsonapi/resource.js';
import { userResource } from './users/index.js';

/** Every JSON:API resource of the event service. */
export const resources: ResourceSpec[] = [userResource];
