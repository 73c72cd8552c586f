import { appAbandonedMail, appBuild } from '../appgen/job.js';
import { fetchLimits, publicUrlOf, type Config } from '../config.js';
import { downloadLinksOf } from '../transfer/download-links.js';
import { eventExport, eventImport, exportFailedMail, importFailedMail, type TransferLimits } from '../transfer/jobs.js';
import { retryingAfter, taskAbandoned } from './task-job.js';
import { imageVariants } from './image-variants.js';
import type { JobDefinition } from './job.js';
import { mailDelivery } from './mail-delivery.js';
import { accountMail } from './account-mail.js';
import { orderConfirmation } from './order-confirmation.js';
import { orderExpiry } from '../resources/orders/expiry.js';
import { eventInvoices } from './event-invoices.js';

/** Every pg-boss queue of the service. */
export const jobs = (config: Config): JobDefinition[] => [
  // First: the task queues below name it as their dead letter queue.
  taskAbandoned({ export: exportFailedMail, import: importFailedMail, app: appAbandonedMail }) as JobDefinition,
  mailDelivery(config.MAIL_RETRY_SECONDS, config.MAIL_RETRY_LIMIT) as JobDefinition,
  imageVariants({ fetch: fetchLimits(config), maxPixels: config.IMAGE_MAX_PIXELS }) as JobDefinition,
  accountMail({
    publicUrl: publicUrlOf(config),
    verifyFor: config.EMAIL_VERIFICATION_EXPIRES_IN,
    resetFor: config.PASSWORD_RESET_EXPIRES_IN,
    inviteFor: config.INVITE_EXPIRES_IN,
  }) as JobDefinition,
  orderConfirmation({ publicUrl: publicUrlOf(config) }) as JobDefinition,
  orderExpiry() as JobDefinition,
  eventInvoices() as JobDefinition,
  ...[
    eventExport(transferLimits(config)) as JobDefinition,
    eventImport(transferLimits(config)) as JobDefinition,
    appBuild({
      fetch: fetchLimits(config),
      maxPixels: config.IMAGE_MAX_PIXELS,
      timeoutMs: config.APPGEN_TIMEOUT_SECONDS * 1000,
      maxDataBytes: config.APPGEN_MAX_DATA_BYTES,
      concurrency: config.APPGEN_CONCURRENCY,
    }) as JobDefinition,
  ].map((job) => retryingAfter(config.TASK_RETRY_SECONDS, job)),
];

const transferLimits = (config: Config): TransferLimits => ({
  fetch: fetchLimits(config),
  maxPixels: config.IMAGE_MAX_PIXELS,
  archive: {
    maxEntries: config.IMPORT_MAX_ENTRIES,
    maxTotalBytes: config.IMPORT_MAX_INFLATED_BYTES,
    maxRatio: config.IMPORT_MAX_RATIO,
    maxJsonBytes: config.IMPORT_MAX_JSON_BYTES,
  },
  publicUrl: publicUrlOf(config),
  links: downloadLinksOf(config),
});
