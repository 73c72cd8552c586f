import type { Config } from '../config.js';
import type { JobDefinition } from './job.js';
import { mailDelivery } from './mail-delivery.js';

/** Every pg-boss queue of the service. */
export const jobs = (config: Config): JobDefinition[] => [
  mailDelivery(config.MAIL_RETRY_SECONDS, config.MAIL_RETRY_LIMIT) as JobDefinition,
];
