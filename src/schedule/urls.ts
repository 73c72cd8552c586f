import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { API_PREFIX } from '../jsonapi/index.js';

/** The session setting that holds the service's public URL (PUBLIC_URL) on every connection of the pool. */
export const PUBLIC_URL_SETTING = 'oe.public_url';

/** In a statement: the absolute URL of the schedule document `file` of the event `identifier` (null without the setting). */
export const scheduleUrl = (identifier: PgColumn, file: string): SQL =>
  sql`current_setting(${PUBLIC_URL_SETTING}, true) || ${`${API_PREFIX}/events/`} || ${identifier} || ${`/${file}`}`;
