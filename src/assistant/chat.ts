import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skills } from '../../db/schema/index.js';
import { AssistantError, sessionOf } from './identity.js';
import { assistantRoute, params } from './route.js';
import { type CatalogEntry, catalogOf } from './skill-catalog.js';
import type { SkillRepo } from './skill-repo.js';
import { given } from './skill-reads.js';
import { recordUsage } from './usage.js';

/** One intent of a skill file: its patterns (`a|b*c`) and the answers to pick from at random. */
export interface Rule {
  patterns: Pattern[];
  answers: string[];
}

/** A pattern as its literal parts between the `*` wildcards (lower case). */
interface Pattern {
  parts: string[];
  literal: number;
}

/**
 * The reference's basic skill text (SusiSkill's text format): blocks separated by empty lines; in a
 * block, the first plain line holds the patterns (`|`-separated, `*` a wildcard), the next plain line
 * the answers (`|`-separated, one picked at random, `$1$` the first wildcard's text). Metadata (`::`),
 * comments (`#`), examples and tests (`!`), conditions (`?`), console rules (`^`) and JSON lines are not
 * patterns or answers.
 */
/** The longest question answered (longer ones are cut), and the longest skill text previewed (`instant`). */
const MAX_QUERY = 1000;
const MAX_INSTANT = 64 * 1024;

export function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  const blocks = text.split(/\r?\n\s*\r?\n/);
  for (const block of blocks) {
    const lines = block
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !/^(::|#|!|\?|\^|\{|\}|\[|\]|")/.test(l));
    // A pattern line longer than any question (1,000 characters) can match nothing: not worth parsing.
    if (lines.length < 2 || lines[0]!.length > MAX_QUERY) continue;
    const patterns = lines[0]!
      .split('|')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => {
        const parts = normal(p).toLowerCase().split('*');
        return { parts, literal: parts.join('').length };
      });
    const answers = lines[1]!
      .split('|')
      .map((a) => a.trim())
      .filter(Boolean);
    if (patterns.length > 0 && answers.length > 0) rules.push({ patterns, answers });
  }
  return rules;
}

const TRAILING = new Set([' ', '?', '!', '.', ',', ';', ':']);

/**
 * Spaces collapsed, trailing punctuation dropped; case is kept (patterns match ignoring it, `$1$` keeps
 * the asker's). The end is trimmed by a loop: an anchored regular expression would try every start of a
 * long run of punctuation (quadratic time on a hostile text).
 */
function normal(text: string) {
  const collapsed = text.replace(/\s+/g, ' ');
  let end = collapsed.length;
  while (end > 0 && TRAILING.has(collapsed[end - 1]!)) end -= 1;
  return collapsed.slice(0, end).trim();
}

/**
 * The wildcard texts of a query matching a pattern, or undefined. Without regular expressions: the
 * first part is a prefix, the last a suffix, each middle part found at its leftmost place (which is
 * right for `*`-only patterns), so a match costs at most query x pattern length whatever the skill says.
 */
function matchPattern({ parts }: Pattern, query: string, lower: string): string[] | undefined {
  // Case folding may change a text's length (rare letters): then the captures come from the folded text.
  const source = lower.length === query.length ? query : lower;
  if (parts.length === 1) return lower === parts[0] ? [] : undefined;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!lower.startsWith(first) || lower.length < first.length + last.length || !lower.endsWith(last)) return undefined;
  const end = lower.length - last.length;
  const captures: string[] = [];
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = lower.indexOf(part, at);
    if (found < 0 || found + part.length > end) return undefined;
    captures.push(source.slice(at, found));
    at = found + part.length;
  }
  captures.push(source.slice(at, end));
  return captures;
}

/** The best answer of some rules to a query (the most literal pattern wins), or undefined. */
export function answerOf(rules: Rule[], query: string): string | undefined {
  const q = normal(query);
  const lower = q.toLowerCase();
  let best: { literal: number; rule: Rule; groups: string[] } | undefined;
  for (const rule of rules) {
    for (const pattern of rule.patterns) {
      if (best && pattern.literal <= best.literal) continue;
      const groups = matchPattern(pattern, q, lower);
      if (groups) best = { literal: pattern.literal, rule, groups };
    }
  }
  if (!best) return undefined;
  const answer = best.rule.answers[randomInt(best.rule.answers.length)]!;
  return answer.replace(/\$(\d+)\$/g, (_, n: string) => best.groups[Number(n) - 1]?.trim() ?? '');
}

/** The reference's catch-all answers (conf/os_skills/system/en/en_0090_fail.json), when no skill answers. */
export const FALLBACK_ANSWERS = [
  'I don’t have enough information to answer your question.',
  'I can’t answer that particular question.',
  'I don’t know the answer to that question.',
  'Thats a good question. To be perfectly honest, I don’t have an answer for you.',
  'Great question. I never actually thought about that before, and I am not sure.',
  'I’m not very familiar with that concept.',
];

/** The parsed rules of the catalog's skills, per catalog list (that is, per commit of the repository). */
const rulesOfEntries = new WeakMap<CatalogEntry[], Map<CatalogEntry, Rule[]>>();

/**
 * `/susi/chat.json`: answers from the skill files with the reference's basic pattern matching, enough
 * for the editor's preview of a skill (its text sent as `instant`). An answer from a skill of the
 * repository counts one use of that skill.
 */
export async function chatRoutes(app: FastifyInstance, repo: SkillRepo) {
  const catalog = catalogOf(app, repo);

  const rulesOf = async () => {
    const entries = await catalog.entries();
    let rules = rulesOfEntries.get(entries);
    if (!rules) {
      rules = new Map();
      for (const e of entries) rules.set(e, parseRules(await repo.read(e.path).catch(() => '')));
      rulesOfEntries.set(entries, rules);
    }
    return rules;
  };

  assistantRoute(
    app,
    {
      url: '/susi/chat.json',
      method: ['GET', 'POST'],
      operationId: 'chat',
      params: params({
        q: 'the query',
        instant: 'the text of a skill to answer from first (the editor previews a skill being edited)',
        language: 'language of the skills answering (en)',
        timezoneOffset: 'minutes from UTC of the client (accepted; no answer here depends on it)',
        latitude: 'accepted and ignored',
        longitude: 'accepted and ignored',
        device_type: 'the client kind (the Android app sends it), recorded with the usage',
        country_code: 'the client country (the Android app sends it), recorded with the usage',
        country_name: 'accepted and ignored',
        geosource: 'accepted and ignored',
      }),
      failures: [400],
      summary: 'Ask the assistant',
      description:
        '`q`, optional `instant` (a skill text answering before the skills of the repository), `language` (en). The answer ' +
        'carries `query`, `client_id`, `query_date`, `answer_date`, `answer_time` (ms) and `answers: [{data: [{answer}], ' +
        'metadata: {count}, actions: [{type: "answer", expression}]}]`; with no matching skill, one of the reference\'s ' +
        'catch-all answers. An answer from a skill of the repository counts one use of it.',
      minimal: 'anonymous',
    },
    async ({ params, identity, request }) => {
      const started = new Date();
      const query = (params.q ?? '').trim().slice(0, MAX_QUERY);
      const language = given(params, 'language') ?? 'en';
      let answer: string | undefined;
      let skill: string | undefined;
      if (query) {
        const instant = given(params, 'instant');
        if (instant && instant.length > MAX_INSTANT)
          throw new AssistantError(400, `The instant skill text is longer than ${MAX_INSTANT} characters`);
        if (instant) {
          answer = answerOf(parseRules(instant), query);
          if (answer !== undefined) skill = 'instant';
        }
        if (answer === undefined) {
          for (const [entry, rules] of await rulesOf()) {
            if (entry.language !== language) continue;
            answer = answerOf(rules, query);
            if (answer === undefined) continue;
            skill = entry.path;
            const [row] = await app.db
              .select({ id: skills.id })
              .from(skills)
              .where(
                and(
                  eq(skills.model, entry.model),
                  eq(skills.group, entry.group),
                  eq(skills.language, entry.language),
                  eq(skills.name, entry.name),
                ),
              );
            if (row)
              await recordUsage(app, row.id, {
                deviceType: given(params, 'device_type'),
                countryCode: given(params, 'country_code'),
              });
            break;
          }
        }
        answer ??= FALLBACK_ANSWERS[randomInt(FALLBACK_ANSWERS.length)]!;
      }
      const answered = new Date();
      const client = identity.caller
        ? `email:${identity.caller.email}`
        : `host:${sessionOf(identity, request).identity.name}`;
      return {
        accepted: true,
        query,
        client_id: Buffer.from(client).toString('base64'),
        query_date: started.toISOString(),
        answers:
          answer === undefined
            ? []
            : [
                {
                  data: [{ answer, query }],
                  metadata: { count: 1 },
                  actions: [{ type: 'answer', expression: answer }],
                  skills: skill ? [skill] : [],
                },
              ],
        answer_date: answered.toISOString(),
        answer_time: answered.getTime() - started.getTime(),
        language,
      };
    },
  );
}
