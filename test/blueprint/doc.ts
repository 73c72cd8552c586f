/**
 * The tables of docs/blueprint.md, written from expectations.ts: the replay checks the document holds them, and
 * write-doc.ts puts them there.
 */
import type { Transaction } from './apib.js';
import { DIFFERENT_ON_PURPOSE, WAITING, WAITING_MEMBERS } from './expectations.js';

export const DOC = 'docs/blueprint.md';
export const BEGIN = '<!-- tables from test/blueprint/expectations.ts: npx tsx test/blueprint/write-doc.ts -->';
export const END = '<!-- end of tables -->';

const cell = (s: string) => s.replaceAll('|', '\\|');

export function renderTables(transactions: Transaction[]): string {
  const out: string[] = [BEGIN, '', '### Waiting for a later issue', ''];
  out.push('| Issue | Resource | Transactions |', '|---|---|---|');
  for (const rule of WAITING) {
    const names = transactions.filter((tx) => rule.match.test(`${tx.method} ${tx.uri}`)).map((tx) => cell(tx.name));
    out.push(`| ${rule.issue} | ${cell(rule.resource)} | ${names.join('<br>')} |`);
  }
  out.push('', '### Members waiting for a later issue', '');
  out.push('| Issue | Record type | Member | Resource |', '|---|---|---|---|');
  for (const m of WAITING_MEMBERS) out.push(`| ${m.issue} | ${m.type} | \`${m.member}\` | ${cell(m.resource)} |`);
  out.push('', '### Different on purpose', '');
  out.push('| Transaction | Our status | Why |', '|---|---|---|');
  for (const d of DIFFERENT_ON_PURPOSE) out.push(`| ${cell(d.transaction)} | ${d.status} | ${cell(d.reason)} |`);
  out.push('', END);
  return out.join('\n');
}
