/**
 * PDFs read back as a reader sees them: the text of each page (pdfjs-dist, Mozilla's PDF reader) and the QR code
 * on each page, decoded (jsQR) from the page rendered to pixels (pdfjs-dist on @napi-rs/canvas), so the code is
 * proved as a scanner at the door would see the printed page.
 */
import { createCanvas } from '@napi-rs/canvas';
import jsqr from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfPage {
  /** The page's text, its pieces joined by single spaces. */
  text: string;
  /** What the QR code on the page says; null when there is none. */
  qr: string | null;
}

/** Every page of a PDF: its text and its QR code. Fails on anything that is not a PDF. */
export async function readPdf(bytes: Buffer | Uint8Array): Promise<PdfPage[]> {
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const pages: PdfPage[] = [];
  try {
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      const viewport = page.getViewport({ scale: 2 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as never, viewport })
        .promise;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      // jsqr is CommonJS: its function is the module and its `default`.
      const qr = jsqr.default(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height)?.data ?? null;
      pages.push({ text, qr });
    }
  } finally {
    await document.destroy();
  }
  return pages;
}
