import { crc32, inflateRawSync } from 'node:zlib';
import AdmZip from 'adm-zip';

export interface ArchiveLimits {
  maxEntries: number;
  /** Sum of the inflated sizes of all entries. */
  maxTotalBytes: number;
  /** Inflated size over compressed size of any one entry. */
  maxRatio: number;
}

/** An archive that is refused; the message is for the person who sent it. */
export class ArchiveError extends Error {}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** An entry name in a message: quoted, control characters escaped. */
const shown = (name: string) => JSON.stringify(name);

/** A relative path of plain segments: no `..`, no absolute or drive paths, no backslashes, no NUL. */
function safeName(name: string): boolean {
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0') || /^[A-Za-z]:/.test(name)) return false;
  return name
    .split('/')
    .every((segment, i, all) => segment !== '..' && segment !== '.' && (segment !== '' || i === all.length - 1));
}

/** Inflates an entry; `maxBytes` refuses it when it would inflate to more (the reader's own limit). */
export type EntryReader = (maxBytes?: number) => Buffer;

/**
 * The files of a zip archive, checked before anything is inflated: entry count, declared sizes and
 * compression ratio, names (zip slip), links and encryption. Each entry is inflated only when read,
 * never beyond its declared size, and checked against its CRC. Nothing is written to disk. A single
 * folder holding everything (an archive of a folder) is taken as the root.
 */
export function openArchive(bytes: Buffer, limits: ArchiveLimits): Map<string, EntryReader> {
  let zip: AdmZip;
  try {
    zip = new AdmZip(bytes);
  } catch {
    throw new ArchiveError('The file is not a zip archive');
  }
  const entries = zip.getEntries();
  if (entries.length > limits.maxEntries)
    throw new ArchiveError(`The archive has more than ${limits.maxEntries} entries`);
  let total = 0;
  const files = new Map<string, EntryReader>();
  for (const entry of entries) {
    const name = entry.entryName;
    const { size, compressedSize, method, flags } = entry.header;
    if (!safeName(name)) throw new ArchiveError(`The archive entry ${shown(name)} has an unsafe path`);
    if (((entry.attr >>> 16) & S_IFMT) === S_IFLNK)
      throw new ArchiveError(`The archive entry ${shown(name)} is a link`);
    if (entry.isDirectory) continue;
    if (flags & 1) throw new ArchiveError(`The archive entry ${shown(name)} is encrypted`);
    if (method !== 0 && method !== 8)
      throw new ArchiveError(`The archive entry ${shown(name)} uses an unsupported compression`);
    total += size;
    if (total > limits.maxTotalBytes)
      throw new ArchiveError(`The archive inflates to more than ${limits.maxTotalBytes} bytes`);
    if (size > limits.maxRatio * Math.max(compressedSize, 1) && size > 1024 * 1024) {
      throw new ArchiveError(`The archive entry ${shown(name)} is compressed more than ${limits.maxRatio} times`);
    }
    files.set(name, (maxBytes = size) => {
      // Inflating stops at the declared size, so a size that lies cannot carry an entry past the limit either.
      if (size > maxBytes)
        throw new ArchiveError(`The archive entry ${shown(name)} inflates to more than ${maxBytes} bytes`);
      let data: Buffer;
      try {
        const stored = entry.getCompressedData();
        data = method === 0 ? stored : inflateRawSync(stored, { maxOutputLength: Math.max(size, 1) });
      } catch {
        throw new ArchiveError(`The archive entry ${shown(name)} is damaged or larger than it declares`);
      }
      if (data.length !== size || crc32(data) !== entry.header.crc >>> 0) {
        throw new ArchiveError(`The archive entry ${shown(name)} is damaged`);
      }
      return data;
    });
  }
  const names = [...files.keys()];
  const root = names[0]?.split('/')[0];
  if (root && names.every((n) => n.startsWith(`${root}/`))) {
    return new Map([...files].map(([name, read]) => [name.slice(root.length + 1), read]));
  }
  return files;
}
