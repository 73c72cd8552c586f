import { createWriteStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as parseFont } from 'fontkit';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

const require = createRequire(import.meta.url);
/**
 * DejaVu Sans: Latin, Greek, Cyrillic and more, where the PDF standard fonts have only Latin-1 (names and event
 * names are anyone's). Parsed once (parsing is most of the time a document takes); each document embeds a subset of
 * the glyphs it uses.
 */
const fontBytes = new Map<string, Buffer>();
export const fontFile = (file: string) => {
  const bytes =
    fontBytes.get(file) ??
    fontBytes.set(file, readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))).get(file)!;
  return parseFont(bytes) as unknown as PDFKit.Mixins.PDFFontSource;
};
const FONTS = { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') };

export const MARGIN = 50;
export const GREY = '#5d6975';

export type Pdf = PDFKit.PDFDocument;

/** The pages of a document: A4 portrait with MARGIN unless told otherwise (`size` in points or a paper name). */
export interface PageSetup {
  size?: string | [number, number];
  layout?: 'portrait' | 'landscape';
  margin?: number;
  /**
   * Fonts parsed for this document alone (about 30 ms each). Documents that share a parsed font share fontkit's
   * glyph cache, and a glyph it first made as a part of another (the `e` of `ë`, when an earlier document was
   * subset) keeps no character: the text of a later document then reads back garbled (its ToUnicode map), though it
   * prints right. The background jobs' documents (exports, badges) take their own.
   */
  ownFonts?: boolean;
}

/** A new document with the fonts `regular` and `bold` registered; its pages are the caller's to add. */
export function createDocument(title: string, author: string, setup: PageSetup = {}): Pdf {
  const fonts = setup.ownFonts ? { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') } : FONTS;
  const doc = new PDFDocument({
    size: setup.size ?? 'A4',
    layout: setup.layout ?? 'portrait',
    margin: setup.margin ?? MARGIN,
    info: { Title: title, Author: author, Creator: author },
    // Not the standard Helvetica each document would load otherwise.
    font: fonts.regular as unknown as string,
    autoFirstPage: false,
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  return doc;
}

/**
 * Streams a document into the file `path` as its pages are written (memory stays bounded however many pages it
 * has); resolves with the file's size once `end()` was called and every byte is on disk.
 */
export function documentToFile(doc: Pdf, path: string): Promise<number> {
  const file = createWriteStream(path);
  return new Promise<number>((resolve, reject) => {
    doc.on('error', reject);
    file.on('error', reject);
    file.on('finish', () => resolve(file.bytesWritten));
    doc.pipe(file);
  });
}

/** A new A4 document with the fonts registered, and its bytes once `end()` is called. */
export function newDocument(title: string, author: string): { doc: Pdf; bytes: Promise<Buffer> } {
  const doc = createDocument(title, author);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

/**
 * A QR code of `text` drawn as vector squares at (x, y), `size` points wide with its quiet zone: sharp at any zoom
 * and on any printer, and a few hundred bytes.
 */
export function drawQr(doc: Pdf, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const cell = size / (modules.size + 2 * quiet);
  doc.save();
  doc.rect(x, y, size, size).fill('#ffffff');
  for (let row = 0; row < modules.size; row++) {
    // One rectangle per run of dark modules in a row.
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      let end = col;
      while (end + 1 < modules.size && modules.get(row, end + 1)) end++;
      doc.rect(x + (quiet + col) * cell, y + (quiet + row) * cell, (end - col + 1) * cell, cell);
      col = end;
    }
  }
  doc.fill('#000000');
  doc.restore();
}

/** An amount with the event's currency: `EUR 25.00`. */
export const money = (amount: number, currency: string) => `${currency} ${amount.toFixed(2)}`;

/**
 * A moment in the event's time zone, named (abbreviations like CEST exist in few locales' data):
 * `Wednesday, 1 May 2030, 11:00 (Europe/Berlin)`.
 */
export const inZone = (date: Date, zone: string) =>
  `${DateTime.fromJSDate(date, { zone }).setLocale('en').toFormat('cccc, d LLLL yyyy, HH:mm')} (${zone})`;

/** A date in the event's time zone: `1 May 2030`. */
export const dayInZone = (date: Date, zone: string) =>
  DateTime.fromJSDate(date, { zone }).setLocale('en').toFormat('d LLLL yyyy');

/** Lets other requests run between pages of a long document. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
