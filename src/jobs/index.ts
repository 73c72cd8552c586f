import { fetchLimits, type Config } from '../config.js';
import { imageVariants } from './image-variants.js';
import type { JobDefinition } from './job.js';
import { mailDelivery } from './mail-delivery.js';

/** Every pg-boss queue of the service. */
export const jobs = (config: Config): JobDefinition[] => [
  mailDelivery(config.MAIL_RETRY_SECONDS, config.MAIL_RETRY_LIMIT) as JobDefinition,
  imageVariants({ fetch: fetchLimits(config), maxPixels: config.IMAGE_MAX_PIXELS }) as JobDefinition,
];
