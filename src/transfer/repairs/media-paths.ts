/** A name as compared: Unicode NFC (macOS writes names decomposed), in lower case. */
const comparable = (name: string) => name.normalize('NFC').toLowerCase();
const withoutExtension = (name: string) => name.replace(/\.[^/.]+$/, '');

/** The entry a media path names, and a note when it does not name it exactly. */
export type MediaEntry = { entry: string; note?: string };

/**
 * The archive entry a media path names: exactly, or without its extension (`/images/logo` for
 * `images/logo.png`, as the reference's exports write them); with a note, in another Unicode
 * normalisation or letter case, written as UTF-8 read as Latin-1 (`FranÃ§ois` for `François`, as
 * old exports did), or with another extension (`banner.jpg` for the archive's only `banner.png`).
 */
export function mediaEntries(entries: string[]): (path: string) => MediaEntry | undefined {
  const exact = new Set(entries);
  /** Entries by their name without extension; and loosely: compared, without extension. */
  const byStem = group(entries, withoutExtension);
  const byLooseStem = group(entries, (e) => comparable(withoutExtension(e)));
  const byLooseName = group(entries, comparable);
  return (path) => {
    const name = path.trim().replace(/^\/+/, '');
    if (exact.has(name)) return { entry: name };
    const bare = onlyOne(byStem.get(name));
    if (bare) return { entry: bare };
    const candidates = [name, ...(/^[\0-\xff]*$/.test(name) ? [Buffer.from(name, 'latin1').toString('utf8')] : [])];
    for (const candidate of candidates) {
      const found =
        onlyOne(byLooseName.get(comparable(candidate))) ??
        onlyOne(byLooseStem.get(comparable(withoutExtension(candidate))));
      if (found) return { entry: found, note: `read as the archive's file ${found}` };
    }
    return undefined;
  };
}

function group(entries: string[], keyOf: (entry: string) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const entry of entries) groups.set(keyOf(entry), [...(groups.get(keyOf(entry)) ?? []), entry]);
  return groups;
}

/** The one entry of a group; none when the name is ambiguous. */
const onlyOne = (list: string[] | undefined) => (list?.length === 1 ? list[0] : undefined);
