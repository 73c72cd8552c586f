import {
  deliverOrderConfirmation,
  ORDER_CONFIRMATION_QUEUE,
  type OrderConfirmationJob,
  type OrderConfirmationOptions,
} from '../resources/orders/documents/confirmation.js';
import { defineJob } from './job.js';

/** The confirmation mails of a placed or completed order, with its tickets and invoice as PDF. */
export const orderConfirmation = (options: OrderConfirmationOptions) =>
  defineJob<OrderConfirmationJob>({
    name: ORDER_CONFIRMATION_QUEUE,
    queue: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
    handler: (app) => async (jobs) => {
      for (const job of jobs) await deliverOrderConfirmation(app, options, job.data);
    },
  });
