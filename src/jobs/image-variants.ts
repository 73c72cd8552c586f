import { IMAGE_VARIANTS_QUEUE, makeVariants, type VariantJob, type VariantLimits } from '../images/variants.js';
import { defineJob } from './job.js';

/** Large, thumbnail and icon variants of an event image, a speaker photo or a user avatar. */
export const imageVariants = (limits: VariantLimits) =>
  defineJob<VariantJob>({
    name: IMAGE_VARIANTS_QUEUE,
    // A remote server or the storage may be down for a moment; a bad image fails every attempt the same way.
    queue: { retryLimit: 2, retryDelay: 30, retryBackoff: true },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const outcome = await makeVariants(app, limits, job.data).catch((err: unknown) => {
          app.log.warn({ err, job: job.data }, 'image variants failed');
          throw err;
        });
        app.log.info({ job: job.data, outcome }, 'image variants');
      }
    },
  });
