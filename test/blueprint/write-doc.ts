/** Writes the tables of expectations.ts into docs/blueprint.md, between its markers: `npx tsx test/blueprint/write-doc.ts`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBlueprint } from './apib.js';
import { BEGIN, DOC, END, renderTables } from './doc.js';

const root = join(import.meta.dirname, '../..');
const transactions = parseBlueprint(
  readFileSync(join(root, '../shared/reference/open-event-server-blueprint.apib'), 'utf8'),
);
const path = join(root, DOC);
const text = readFileSync(path, 'utf8');
const start = text.indexOf(BEGIN);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`${DOC} has no ${BEGIN} ... ${END} markers`);
writeFileSync(path, text.slice(0, start) + renderTables(transactions) + text.slice(end + END.length));
console.log(`${DOC}: tables written`);
