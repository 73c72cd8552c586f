/**
 * Badges drawn as the reference's pdf/badge_forms.html lays them out: the badge form's size, orientation, colour and
 * background image, and its fields one under the other, each with its margins (millimetres), font, size, colour,
 * weight, style, underline, letter case, alignment and rotation; a QR field draws a QR code half the badge wide.
 * A page holds one badge at its own size (`label`, for label printers) or as many as fit on A4 (`a4`, with cut lines).
 */
import type { badgeFieldForms, badgeForms } from '../../../db/schema/index.js';
import { answerOf, fullName, type AttendeeRow } from '../attendees/answers.js';
import { drawQr, fontFile, type Pdf } from '../orders/documents/pdf.js';

export type BadgeFormRow = typeof badgeForms.$inferSelect;
export type BadgeFieldRow = typeof badgeFieldForms.$inferSelect;

/** How badges are put on pages: one per page at its size, or as many as fit on A4. */
export const PAGE_SIZES = ['label', 'a4'] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** The badge sizes the Open Event front end offers (app/utils/dictionary/badge-field.ts); its default is the second. */
export const BADGE_SIZES = ['3 x 4 inch (76.2 x 101.6mm )', '4 x 6 inch (101.6 x 152.4 mm)'];

const MM = 72 / 25.4;
const INCH = 72;
/** A4 in points, and the margin kept around the badges on it. */
const A4: [number, number] = [595.28, 841.89];
const SHEET_MARGIN = 10 * MM;
/** The space kept inside a badge's edge. */
const INSET = 3 * MM;
/** A QR code's size: half the badge's width, as the reference's template draws it. */
const QR_SHARE = 0.5;
/** A QR code holds at most this many characters of a vCard (a version 25 code at level M holds about 1,800 bytes). */
const QR_MAX_CHARS = 1200;

export interface BadgeSize {
  width: number;
  height: number;
}

/**
 * The size of a badge in points from its form: `W x H inch` or `W x H mm` as the front end names its sizes (4 x 6
 * inch when it names none it knows), turned when the orientation is Landscape, and never larger than A4.
 */
export function badgeSizeOf(form: Pick<BadgeFormRow, 'badgeSize' | 'badgeOrientation'>): BadgeSize {
  const named = form.badgeSize ?? BADGE_SIZES[1]!;
  const inches = /(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:inch|in\b|")/i.exec(named);
  const mms = /(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*mm/i.exec(named);
  let [width, height] = inches
    ? [Number(inches[1]) * INCH, Number(inches[2]) * INCH]
    : mms
      ? [Number(mms[1]) * MM, Number(mms[2]) * MM]
      : [4 * INCH, 6 * INCH];
  if (form.badgeOrientation?.trim().toLowerCase() === 'landscape') [width, height] = [height, width];
  const fitted = (value: number, most: number) => Math.min(Math.max(value, INCH), most);
  // Landscape badges fit A4 turned.
  const [most, least] = width > height ? [A4[1], A4[0]] : [A4[0], A4[1]];
  return {
    width: fitted(width, most - 2 * SHEET_MARGIN),
    height: fitted(height, least - 2 * SHEET_MARGIN),
  };
}

/** A CSS colour this renderer draws: `#rgb`, `#rrggbb` or a colour name (others are left out). */
const colour = (value: string | null | undefined) =>
  value && /^(#[0-9a-f]{3}|#[0-9a-f]{6}|[a-z]{3,20})$/i.test(value.trim()) ? value.trim() : undefined;

// Fonts: DejaVu Sans for every font the front end offers but Times New Roman and Courier New (DejaVu Serif and Sans
// Mono), each in regular, bold, italic and bold italic. Parsed when a document first uses them, for that document
// alone (see PageSetup.ownFonts).
const FAMILIES = {
  sans: ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSans-BoldOblique.ttf'],
  serif: ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSerif-Italic.ttf', 'DejaVuSerif-BoldItalic.ttf'],
  mono: [
    'DejaVuSansMono.ttf',
    'DejaVuSansMono-Bold.ttf',
    'DejaVuSansMono-Oblique.ttf',
    'DejaVuSansMono-BoldOblique.ttf',
  ],
};
const registered = new WeakMap<Pdf, Set<string>>();

/** Sets the font of a field on `doc`, registering it with the document on first use. */
function useFont(doc: Pdf, field: BadgeFieldRow) {
  const name = field.fontName?.toLowerCase() ?? '';
  const family = name.includes('times') ? 'serif' : name.includes('courier') ? 'mono' : 'sans';
  const styles = field.fontWeight ?? [];
  const bold = styles.some((s) => s.font_weight?.toLowerCase() === 'bold');
  const italic = styles.some((s) => s.font_style?.toLowerCase() === 'italic');
  const file = FAMILIES[family][(bold ? 1 : 0) + (italic ? 2 : 0)]!;
  const known = registered.get(doc) ?? registered.set(doc, new Set()).get(doc)!;
  if (!known.has(file)) {
    doc.registerFont(file, fontFile(file));
    known.add(file);
  }
  doc.font(file);
  return { underline: styles.some((s) => s.text_decoration?.toLowerCase() === 'underline') };
}

/** The text in the letter case the field asks for (the front end's None, Uppercase, Lowercase, Capitalize). */
function cased(text: string, type: string | null) {
  const t = type?.toLowerCase();
  if (t === 'uppercase') return text.toUpperCase();
  if (t === 'lowercase') return text.toLowerCase();
  if (t === 'capitalize')
    return text.replace(/(^|\s)(\S)/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
  return text;
}

const alignment = (value: string | null): 'left' | 'center' | 'right' | 'justify' => {
  const a = value?.trim().toLowerCase();
  return a === 'left' || a === 'right' || a === 'justify' ? a : 'center';
};

/** A field's margin in points (millimetres in the form; a negative one pulls the field closer, as in CSS). */
const margin = (mm: number | null) => Math.min(Math.max(mm ?? 0, -100), 300) * MM;

/** Whether the field is the badge's QR code (the front end names it QR, as custom field and identifier). */
export const isQrField = (field: Pick<BadgeFieldRow, 'customField' | 'fieldIdentifier'>) =>
  field.customField?.trim().toLowerCase() === 'qr' || field.fieldIdentifier?.trim().toLowerCase() === 'qr';

const folded = (identifier: string) => identifier.replace(/[_\s-]/g, '').toLowerCase();

/** A vCard value: backslashes, commas, semicolons and line breaks escaped (RFC 6350), at most 200 characters. */
const vcardValue = (text: string) =>
  text
    .slice(0, 200)
    .replace(/\\/g, '\\\\')
    .replace(/[,;]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, '\\n');

/** vCard lines the reference's cvf/badge_qr_template.cvf writes for the attendee form's fixed fields. */
const VCARD_LINES: Record<string, (value: string) => string> = {
  email: (v) => `EMAIL:${v}`,
  phone: (v) => `TEL;TYPE=HOME:${v}`,
  workphone: (v) => `TEL;TYPE=WORK:${v}`,
  billingaddress: (v) => `ADR;TYPE=BILLING:;;${v};;;;`,
  homeaddress: (v) => `ADR;TYPE=HOME:;;${v};;;;`,
  shippingaddress: (v) => `ADR;TYPE=SHIPPING:;;${v};;;;`,
  workaddress: (v) => `ADR;TYPE=WORK:;;${v};;;;`,
  company: (v) => `ORG:${v}`,
  jobtitle: (v) => `TITLE:${v}`,
  website: (v) => `URL;TYPE=WEBSITE:${v}`,
  blog: (v) => `URL;TYPE=BLOG:${v}`,
  twitter: (v) => `URL;TYPE=TWITTER:${v}`,
  facebook: (v) => `URL;TYPE=FACEBOOK:${v}`,
  github: (v) => `URL;TYPE=GITHUB:${v}`,
  linkedin: (v) => `URL;TYPE=LINKEDIN:${v}`,
  instagram: (v) => `URL;TYPE=INSTAGRAM:${v}`,
};
const NAME_PARTS = new Set(['firstname', 'lastname', 'name', 'fullname']);
const ADDRESS_PARTS = new Set(['address', 'city', 'state', 'country']);

/**
 * What a badge's QR code says: the holder's ticket identifier, which the door scans, as the ticket PDF's code does;
 * when the field lists fields to include (`qr_custom_field`), a vCard of them as the reference writes it
 * (cvf/badge_qr_template.cvf), its `X-SOCIALPROFILE;TYPE=EVENTYAY` being the ticket identifier. `labels` names the
 * event's own form fields (their vCard type).
 */
export function qrText(row: AttendeeRow, include: string[] | null, labels: Map<string, string>): string {
  if (!include?.length) return row.identifier;
  const wanted = new Set(include.map(folded));
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `X-SOCIALPROFILE;TYPE=EVENTYAY:${vcardValue(row.identifier)}`];
  if ([...wanted].some((w) => NAME_PARTS.has(w))) {
    lines.push(`FN:${vcardValue(fullName(row))}`);
    lines.push(`N:${vcardValue(row.lastname ?? '')};${vcardValue(row.firstname ?? '')};;;`);
  }
  if ([...wanted].some((w) => ADDRESS_PARTS.has(w))) {
    const part = (name: 'address' | 'city' | 'state' | 'country') =>
      wanted.has(name) ? vcardValue(row[name] ?? '') : '';
    lines.push(`ADR;TYPE=ADDRESS:;;${part('address')};${part('city')};${part('state')};;${part('country')}`);
  }
  let length = lines.join('\r\n').length;
  for (const identifier of include) {
    const key = folded(identifier);
    if (NAME_PARTS.has(key) || ADDRESS_PARTS.has(key) || key === 'identifier') continue;
    const value = answerOf(row, identifier);
    if (!value) continue;
    const type = (labels.get(identifier) ?? identifier).replace(/[^A-Za-z0-9]/g, '') || 'FIELD';
    const line = (VCARD_LINES[key] ?? ((v: string) => `X-SOCIALPROFILE;TYPE=${type}:${v}`))(vcardValue(value));
    // What a QR code cannot hold is left out, the identifier never.
    if (length + line.length + 2 > QR_MAX_CHARS) break;
    lines.push(line);
    length += line.length + 2;
  }
  lines.push('END:VCARD');
  return lines.join('\r\n');
}

/** A badge design: the form, its live fields in order, its size, and its background image when it has one. */
export interface BadgeDesign {
  form: BadgeFormRow;
  fields: BadgeFieldRow[];
  size: BadgeSize;
  /** The background image as a JPEG. */
  background?: Buffer;
}

/** What a badge shows of its holder. */
export interface BadgeHolder {
  row: AttendeeRow;
  /** The fields to print (folded identifiers); undefined: all. */
  shown?: Set<string>;
  /** Labels of the event's own form fields, by identifier (the vCard's types). */
  labels: Map<string, string>;
}

/** What a field prints for the holder: its answer, or the sample text of a field naming no answer (fixed text). */
function fieldText(field: BadgeFieldRow, holder: BadgeHolder): string {
  const identifier = field.fieldIdentifier?.trim();
  if (!identifier) return field.sampleText ?? '';
  if (holder.shown && !holder.shown.has(folded(identifier))) return '';
  return answerOf(holder.row, identifier);
}

const images = new WeakMap<Pdf, Map<Buffer, unknown>>();

/** Draws one badge with its top left corner at (x, y). */
function drawBadge(doc: Pdf, design: BadgeDesign, holder: BadgeHolder, x: number, y: number) {
  const { width, height } = design.size;
  doc.save();
  doc.rect(x, y, width, height).clip();
  const fill = colour(design.form.badgeColor);
  if (fill) {
    doc.fillColor('#ffffff').fillColor(fill);
    doc.rect(x, y, width, height).fill();
  }
  if (design.background) {
    // pdfkit's image object (its typings leave openImage out): embedded in the document once, drawn on every badge.
    const opened = images.get(doc) ?? images.set(doc, new Map()).get(doc)!;
    const open = (doc as unknown as { openImage(src: Buffer): unknown }).openImage.bind(doc);
    const image =
      opened.get(design.background) ?? opened.set(design.background, open(design.background)).get(design.background);
    doc.image(image as Buffer, x, y, { cover: [width, height], align: 'center', valign: 'center' });
  }
  const left = x + INSET;
  const inner = width - 2 * INSET;
  const end = y + height - INSET;
  let top = y + INSET;
  for (const field of design.fields) {
    top += margin(field.marginTop);
    const fieldLeft = left + margin(field.marginLeft);
    const fieldWidth = inner - margin(field.marginLeft) - margin(field.marginRight);
    if (top >= end) break;
    // Margins that leave no room: the field is left out.
    if (fieldWidth < 12) continue;
    const align = alignment(field.textAlignment);
    if (isQrField(field)) {
      const size = Math.max(Math.min(inner * QR_SHARE, fieldWidth, end - top), 0);
      if (size < 24) continue;
      const qrLeft =
        align === 'left'
          ? fieldLeft
          : align === 'right'
            ? fieldLeft + fieldWidth - size
            : fieldLeft + (fieldWidth - size) / 2;
      drawQr(doc, qrText(holder.row, field.qrCustomField, holder.labels), qrLeft, top, size);
      top += size + margin(field.marginBottom);
      continue;
    }
    const { underline } = useFont(doc, field);
    doc.fontSize(Math.min(Math.max(field.fontSize ?? 14, 4), 144));
    doc.fillColor('#000000').fillColor(colour(field.fontColor) ?? '#000000');
    // A blank field keeps its line, as the reference's empty paragraph does.
    const text = cased(fieldText(field, holder), field.textType) || ' ';
    const options = { align, underline, ellipsis: true, lineBreak: true };
    const rotation = ((field.textRotation ?? 0) % 360) * (Math.PI / 180);
    const oneLine = text.includes('\n') ? undefined : doc.widthOfString(text);
    if (rotation === 0 && oneLine !== undefined && oneLine <= fieldWidth) {
      // The common case, placed without pdfkit's line wrapper (which measures the text again).
      const x =
        align === 'right'
          ? fieldLeft + fieldWidth - oneLine
          : align === 'center'
            ? fieldLeft + (fieldWidth - oneLine) / 2
            : fieldLeft;
      doc.text(text, x, top, { lineBreak: false, underline });
      top += doc.currentLineHeight(true);
    } else if (rotation === 0) {
      const room = end - top;
      const used = Math.min(doc.heightOfString(text, { width: fieldWidth }), room);
      doc.text(text, fieldLeft, top, {
        ...options,
        width: fieldWidth,
        height: Math.max(used, doc.currentLineHeight()),
      });
      top += used;
    } else {
      // Turned about its centre; the box it turns into takes its place in the column.
      const textWidth = Math.min((oneLine ?? fieldWidth) + 1, fieldWidth);
      const textHeight = doc.heightOfString(text, { width: textWidth });
      const cos = Math.abs(Math.cos(rotation));
      const sin = Math.abs(Math.sin(rotation));
      const boxWidth = textWidth * cos + textHeight * sin;
      const boxHeight = textWidth * sin + textHeight * cos;
      const boxLeft =
        align === 'left'
          ? fieldLeft
          : align === 'right'
            ? fieldLeft + fieldWidth - boxWidth
            : fieldLeft + (fieldWidth - boxWidth) / 2;
      const cx = boxLeft + boxWidth / 2;
      const cy = top + boxHeight / 2;
      doc.save();
      doc.rotate(field.textRotation ?? 0, { origin: [cx, cy] });
      doc.text(text, cx - textWidth / 2, cy - textHeight / 2, { ...options, width: textWidth, height: textHeight });
      doc.restore();
      top += boxHeight;
    }
    top += margin(field.marginBottom);
  }
  doc.restore();
}

/** Lays out badges on pages of `doc` as they come: one per page, or a grid of them on A4 with cut lines. */
export function badgeSheets(doc: Pdf, pageSize: PageSize) {
  let grid: { key: string; cols: number; rows: number; x0: number; y0: number; slot: number } | undefined;
  /** The grid of badges of `size` on A4: the orientation that holds more of them, centred. */
  const gridOf = (size: BadgeSize) => {
    const fits = ([w, h]: [number, number]) => ({
      cols: Math.max(1, Math.floor((w - 2 * SHEET_MARGIN) / size.width)),
      rows: Math.max(1, Math.floor((h - 2 * SHEET_MARGIN) / size.height)),
    });
    const portrait = fits(A4);
    const landscape = fits([A4[1], A4[0]]);
    const turned = landscape.cols * landscape.rows > portrait.cols * portrait.rows;
    const [w, h] = turned ? [A4[1], A4[0]] : A4;
    const { cols, rows } = turned ? landscape : portrait;
    return { cols, rows, turned, x0: (w - cols * size.width) / 2, y0: (h - rows * size.height) / 2 };
  };
  return {
    add(design: BadgeDesign, holder: BadgeHolder) {
      const { width, height } = design.size;
      if (pageSize === 'label') {
        doc.addPage({ size: [width, height], margin: 0 });
        drawBadge(doc, design, holder, 0, 0);
        return;
      }
      const key = `${width}x${height}`;
      if (!grid || grid.key !== key || grid.slot >= grid.cols * grid.rows) {
        const next = gridOf(design.size);
        doc.addPage({ size: 'A4', layout: next.turned ? 'landscape' : 'portrait', margin: 0 });
        grid = { key, cols: next.cols, rows: next.rows, x0: next.x0, y0: next.y0, slot: 0 };
      }
      const x = grid.x0 + (grid.slot % grid.cols) * width;
      const y = grid.y0 + Math.floor(grid.slot / grid.cols) * height;
      grid.slot++;
      drawBadge(doc, design, holder, x, y);
      // Cut lines: a thin dashed outline.
      doc.save();
      doc.rect(x, y, width, height).lineWidth(0.3).dash(3, { space: 3 }).strokeColor('#9aa5ae').stroke();
      doc.restore();
    },
  };
}
