import { timestamp } from 'drizzle-orm/pg-core';

/** Every timestamp is `timestamptz(3)`: the millisecond precision JavaScript dates carry. */
export const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
