import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillCountryUsage, skillDeviceUsage, skillUsage } from '../../db/schema/index.js';

/** Where a use of a skill came from (the chat request's client), when known. */
export interface UsageSource {
  deviceType?: string;
  countryCode?: string;
}

/** The reference's device type when the chat request names none (SusiFace: `device_type`, default `Others`). */
export const DEFAULT_DEVICE = 'Others';

/** The device type as stored: trimmed, at most 100 characters, `Others` when empty. */
export const deviceTypeOf = (value: string | undefined) => value?.trim().slice(0, 100) || DEFAULT_DEVICE;

/** A two-letter country code in capitals, or undefined when the value is none (the reference records no country then). */
export function countryCodeOf(value: string | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) ? code : undefined;
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** The English name of a country code (the reference stored the name the client sent; chat clients send the code). */
export const countryNameOf = (code: string) => {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * Counts one use of a skill (the reference counts each chat answer a skill gave): today, for the
 * client's device type, and for its country when it named a valid one.
 */
export async function recordUsage(app: FastifyInstance, skillId: number, source: UsageSource = {}) {
  const country = countryCodeOf(source.countryCode);
  await app.db.transaction(async (tx) => {
    await tx
      .insert(skillUsage)
      .values({ skillId, day: sql`current_date`, count: 1 })
      .onConflictDoUpdate({
        target: [skillUsage.skillId, skillUsage.day],
        set: { count: sql`${skillUsage.count} + 1` },
      });
    await tx
      .insert(skillDeviceUsage)
      .values({ skillId, deviceType: deviceTypeOf(source.deviceType), count: 1 })
      .onConflictDoUpdate({
        target: [skillDeviceUsage.skillId, skillDeviceUsage.deviceType],
        set: { count: sql`${skillDeviceUsage.count} + 1` },
      });
    if (country) {
      await tx
        .insert(skillCountryUsage)
        .values({ skillId, countryCode: country, count: 1 })
        .onConflictDoUpdate({
          target: [skillCountryUsage.skillId, skillCountryUsage.countryCode],
          set: { count: sql`${skillCountryUsage.count} + 1` },
        });
    }
  });
}
