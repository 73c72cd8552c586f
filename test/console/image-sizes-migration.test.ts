/**
 * Migration 0034 moves the image sizes out of the settings into image_sizes: the sizes an administrator had set
 * are kept; settings left as they were give the reference's values (also the old defaults).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import t from 'tap';
import { migrationsFolder } from '../../db/migrate.js';
import { createTestDatabase } from '../helpers/database.js';

/** A copy of the migrations folder that stops before 0034. */
async function foldersBefore0034(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'oe-migrations-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(migrationsFolder, dir, { recursive: true, dereference: true });
  const path = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(path, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx < 34);
  await writeFile(path, JSON.stringify(journal));
  return dir;
}

async function migrated(settings?: string) {
  const db = await createTestDatabase({ migrated: false });
  t.teardown(db.drop);
  const client = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(() => client.end());
  await migrate(drizzle(client), { migrationsFolder: await foldersBefore0034() });
  if (settings) await client.unsafe(settings);
  await migrate(drizzle(client), { migrationsFolder });
  return client`select type, full_width, full_height, full_aspect, icon_width, icon_height, thumbnail_width,
    thumbnail_height, thumbnail_size_width_height, small_size_width_height, icon_size_width_height
    from image_sizes order by type`;
}

t.test('the sizes an administrator set in the settings are kept', async (t) => {
  const rows = await migrated(
    `update settings set large_image_width = 1600, large_image_height = 600, icon_image_width = 90,
       icon_image_height = 40, thumbnail_image_width = 640, thumbnail_image_height = 256, image_keep_aspect = false,
       profile_thumbnail_size = 400, profile_small_size = 60, profile_icon_size = 40`,
  );
  t.same(
    rows.map((r) => ({ ...r })),
    [
      {
        type: 'event-image',
        full_width: 1600,
        full_height: 600,
        full_aspect: false,
        icon_width: 90,
        icon_height: 40,
        thumbnail_width: 640,
        thumbnail_height: 256,
        thumbnail_size_width_height: null,
        small_size_width_height: null,
        icon_size_width_height: null,
      },
      {
        type: 'speaker-image',
        full_width: null,
        full_height: null,
        full_aspect: false,
        icon_width: null,
        icon_height: null,
        thumbnail_width: null,
        thumbnail_height: null,
        thumbnail_size_width_height: 400,
        small_size_width_height: 60,
        icon_size_width_height: 40,
      },
    ],
  );
});

t.test("settings left as they were give the reference's sizes", async (t) => {
  const rows = await migrated();
  t.match(rows[0], { type: 'event-image', full_width: 1300, full_height: 500, full_aspect: true, icon_width: 75 });
  t.match(rows[1], { type: 'speaker-image', thumbnail_size_width_height: 500, small_size_width_height: 50 });
});
