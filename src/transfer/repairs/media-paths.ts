/** A name as compared: Unicode NFC (macOS writes names decomposed), in lower case. */
const comparable = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * The archive entry a media path names: exactly, without its extension (`/images/logo` for
 * `images/logo.png`), in another Unicode normalisation or letter case, or written as UTF-8 read as
 * Latin-1 (`FranÃ§ois` for `François`, as old exports did).
 */
export function mediaEntries(entries: string[]): (path: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const entry of entries) {
    for (const name of [entry, entry.replace(/\.[^/.]+$/, '')]) if (!byName.has(comparable(name))) byName.set(comparable(name), entry);
  }
  const exact = new Set(entries);
  return (path) => {
    const name = path.trim().replace(/^\/+/, '');
    if (exact.has(name)) return name;
    const candidates = [name, ...(/^[\0-\xff]*$/.test(name) ? [Buffer.from(name, 'latin1').toString('utf8')] : [])];
    for (const candidate of candidates) {
      const entry = byName.get(comparable(candidate));
      if (entry) return entry;
    }
    return undefined;
  };
}
