/**
 * The metadata of a skill file as the reference reads it (susi_server SusiSkill): `::key value` lines
 * outside intent blocks, and the examples of `!example:` lines. Unknown `::` keys are ignored.
 */
export interface SkillFileMetadata {
  name: string | null;
  description: string | null;
  image: string | null;
  author: string | null;
  author_url: string | null;
  author_email: string | null;
  developer_privacy_policy: string | null;
  terms_of_use: string | null;
  dynamic_content: boolean;
  protected: boolean;
  tags: string[];
  kickoff: string | null;
  examples: string[];
}

const TEXT_KEYS = [
  'name',
  'description',
  'image',
  'author',
  'author_url',
  'author_email',
  'developer_privacy_policy',
  'terms_of_use',
  'kickoff',
] as const;

export function parseSkillMetadata(text: string): SkillFileMetadata {
  const meta: SkillFileMetadata = {
    name: null,
    description: null,
    image: null,
    author: null,
    author_url: null,
    author_email: null,
    developer_privacy_policy: null,
    terms_of_use: null,
    dynamic_content: false,
    protected: false,
    tags: [],
    kickoff: null,
    examples: [],
  };
  const examples = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('::')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const key = line.slice(2, space);
      const value = line.slice(space + 1).trim();
      if ((TEXT_KEYS as readonly string[]).includes(key)) meta[key as (typeof TEXT_KEYS)[number]] = value;
      else if (key === 'dynamic_content') meta.dynamic_content = value.toLowerCase() === 'yes';
      else if (key === 'protected') meta.protected = value.toLowerCase() === 'yes';
      else if (key === 'tags')
        meta.tags = value
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
      continue;
    }
    // `!example: text` (the head is case-insensitive; the reference splits at the last colon).
    const bang = /^!\s*example\s*:(.*)$/i.exec(line);
    if (bang && bang[1]!.trim()) examples.add(bang[1]!.trim());
  }
  meta.examples = [...examples];
  return meta;
}
