import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Every environment variable the service reads, with its default. The README lists the same table. */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  DATA_DIR: Type.String({ default: './data' }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  JWT_EXPIRES_IN: Type.Integer({ minimum: 60, default: 86400, description: 'token lifetime in seconds' }),
  SUPER_ADMIN_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' })),
  SUPER_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], {
    default: 'all',
    description: 'api serves HTTP, worker runs the background jobs, all does both (also `npm start -- --role <role>`)',
  }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://', description: 'SMTP server when the settings name none' })),
  MAIL_FROM: Type.String({ default: 'Open Event <no-reply@localhost>', description: 'sender when the settings name none' }),
  MAIL_OUTBOX_DIR: Type.String({ default: './data/outbox', description: 'where messages go as .eml files without SMTP' }),
  MAIL_RETRY_SECONDS: Type.Integer({ minimum: 1, default: 60, description: 'first retry of a failed delivery; doubles each time' }),
  MAIL_RETRY_LIMIT: Type.Integer({ minimum: 0, default: 10, description: 'retries before a mail is marked failed' }),
  BENCH_ROUTES: Type.Boolean({ default: false, description: 'mount the /bench baseline routes used by make bench' }),
});
export type Config = Static<typeof ConfigSchema> & { JWT_SECRET: string };
export type ConfigInput = Partial<Record<keyof Static<typeof ConfigSchema>, string>>;

/** Reads the configuration once; unknown or invalid values stop the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv | ConfigInput = process.env): Static<typeof ConfigSchema> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const raw = env[key as keyof typeof env];
    if (raw !== undefined && raw !== '') picked[key] = raw;
  }
  const value = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, picked));
  const errors = [...Value.Errors(ConfigSchema, value)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.path.slice(1) || '(root)'}: ${e.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return value as Static<typeof ConfigSchema>;
}
