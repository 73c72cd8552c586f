/**
 * open-event-frontend `app/controllers/events/view/tickets/attendees.js`: its `export(mode)` starts the attendees export
 * with the loader (`GET /events/{id}/export/attendees/{csv,pdf}`), polls `task_url` (`withoutPrefix`) every 3
 * seconds, and on SUCCESS sets `window.location` to `result.download_url`: the browser navigates there, with none
 * of the front end's headers, so the signed link alone must serve the file.
 */
import { exportsByNavigation } from '../helpers/front-end-export.js';

await exportsByNavigation('attendees');
