import { readFileSync } from 'node:fs';
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
const font = (file: string) =>
  parseFont(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as unknown as PDFKit.Mixins.PDFFontSource;
const FONTS = { regular: font('DejaVuSans.ttf'), bold: font('DejaVuSans-Bold.ttf') };

export const MARGIN = 50;
export const GREY = '#5d6975';

export type Pdf = PDFKit.PDFDocument;

/** A new A4 document with the fonts registered, and its bytes once `end()` is called. */
export function newDocument(title: string, author: string): { doc: Pdf; bytes: Promise<Buffer> } {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: title, Author: author, Creator: author },
    // Not the standard Helvetica each document would load otherwise.
    font: FONTS.regular as unknown as string,
    autoFirstPage: false,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
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
