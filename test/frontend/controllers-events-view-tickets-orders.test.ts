/**
 * open-event-frontend `app/controllers/events/view/tickets/orders.js`: its `export(mode)` starts the orders export
 * with the loader (`GET /events/{id}/export/orders/{csv,pdf}`), polls `task_url` (`withoutPrefix`) every 3
 * seconds, and on SUCCESS sets `window.location` to `result.download_url`: the browser navigates there, with none
 * of the front end's headers, so the signed link alone must serve the file.
 */
import { exportsByNavigation } from '../helpers/front-end-export.js';

await exportsByNavigation('orders');
