export * from './users.js';
export * from './events.js';
export * from './event-records.js';
export * from './sessions.js';
export * from './site.js';
export * from './orders.js';
export * from './tasks.js';
export * from './assistant.js';
