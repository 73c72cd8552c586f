/**
 * A reader of the API Blueprint subset open-event-server's blueprint is written in
 * (../shared/reference/open-event-server-blueprint.apib): `# Group`, `## Resource [/uri{?query}]`,
 * `### Action [METHOD]` (or `[METHOD /uri]`), `+ Parameters`, `+ Request` and `+ Response <status>` with
 * `+ Headers` / `+ Body` or a bare indented body. Each request/response pair is a transaction named as Dredd
 * names it (`Group > Resource > Action`), which the reference's Dredd hooks (tests/hook_main.py) use.
 *
 * Hand-written rather than drafter.js: that package (an Emscripten build of the archived C++ parser) takes
 * about 10 s for this file and adds 4 MB; this file's structure is regular. Checked against drafter.js 3.2.0
 * once: the same 373 transactions, methods, URIs, parameters, statuses and bodies.
 */

export interface Message {
  headers: Record<string, string>;
  /** The body as written, dedented; undefined when the example has none. */
  body?: string;
}

export interface Transaction {
  /** `Group > Resource > Action`, Dredd's transaction name. */
  name: string;
  group: string;
  resource: string;
  action: string;
  method: string;
  /** The URI template of the action, or of its resource. */
  uri: string;
  /** Example values of the URI parameters (resource and action), by the template's names. */
  parameters: Record<string, string>;
  request: Message;
  response: Message & { status: number };
  /** 1-based line of the action heading. */
  line: number;
}

const GROUP = /^# Group (.+?)\s*$/;
const RESOURCE = /^## (.+?)\s*\[(.+)\]\s*$/;
const ACTION = /^### (.+?)\s*\[([A-Z]+)(?:\s+(\S+))?\]\s*$/;
const REQUEST = /^\+ Request\b/;
const RESPONSE = /^\+ Response(?:\s+(\d{3}))?/;
const MEDIA_TYPE = /\(([^)]+)\)\s*$/;

interface Section {
  kind: 'request' | 'response';
  status: number;
  mediaType?: string;
  lines: string[];
}

/** `+ name: example (type) - text` or `+ name (optional, type, \`example\`) - text`. */
export function parseParameter(line: string): [string, string | undefined] | undefined {
  const m = /^\s+\+\s+([A-Za-z0-9_%]+)\s*(?::\s*([^(]*?))?\s*(?:\((.*?)\))?\s*(?:-.*)?$/.exec(line);
  if (!m) return undefined;
  const [, name, example, attributes] = m;
  if (example) return [name!, example.replace(/^`(.*)`$/, '$1')];
  const quoted = /`([^`]*)`/.exec(attributes ?? '');
  return [name!, quoted?.[1] ? quoted[1] : undefined];
}

function dedent(lines: string[]): string | undefined {
  while (lines.length && !lines[0]!.trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  if (!lines.length) return undefined;
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return `${lines.map((l) => l.slice(indent)).join('\n')}\n`;
}

/** Splits a request or response section into its headers and body. */
function message(section: Section): Message {
  const headers: Record<string, string> = {};
  const body: string[] = [];
  let part: 'body' | 'headers' | 'other' = 'body';
  for (const line of section.lines) {
    const sub = /^\s{2,4}\+ (Headers|Body|Schema|Attributes)\b/.exec(line);
    if (sub) {
      part = sub[1] === 'Headers' ? 'headers' : sub[1] === 'Body' ? 'body' : 'other';
      continue;
    }
    if (part === 'headers') {
      const h = /^\s+([A-Za-z-]+):\s*(.*?)\s*$/.exec(line);
      if (h) headers[h[1]!] = h[2]!;
    } else if (part === 'body') body.push(line);
  }
  if (section.mediaType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = section.mediaType;
  return { headers, body: dedent(body) };
}

/** Every transaction of the blueprint, in its order. */
export function parseBlueprint(source: string): Transaction[] {
  const lines = source.split(/\r?\n/);
  const transactions: Transaction[] = [];
  let group = '';
  let resource: { name: string; uri: string; parameters: Record<string, string> } | undefined;
  let action:
    | { name: string; method: string; uri?: string; parameters: Record<string, string>; line: number }
    | undefined;
  let sections: Section[] = [];
  let current: Section | undefined;
  /** Where a `+ Parameters` list goes (the action's, else the resource's), and whether one is being read. */
  let parameters: Record<string, string> | undefined;
  let inParameters = false;

  const flush = () => {
    if (resource && action) {
      let request: Section | undefined;
      for (const s of sections) {
        if (s.kind === 'request') {
          request = s;
          continue;
        }
        transactions.push({
          name: `${group} > ${resource.name} > ${action.name}`,
          group,
          resource: resource.name,
          action: action.name,
          method: action.method,
          uri: action.uri ?? resource.uri,
          parameters: { ...resource.parameters, ...action.parameters },
          request: request ? message(request) : { headers: {} },
          response: { status: s.status, ...message(s) },
          line: action.line,
        });
        request = undefined;
      }
    }
    sections = [];
    current = undefined;
    action = undefined;
  };

  lines.forEach((line, i) => {
    let m: RegExpExecArray | null;
    if ((m = GROUP.exec(line))) {
      flush();
      resource = undefined;
      group = m[1]!;
    } else if (line.startsWith('# ')) {
      flush();
      resource = undefined;
    } else if ((m = RESOURCE.exec(line)) || line.startsWith('## ')) {
      flush();
      // A heading whose URI does not start with `/` is prose to drafter (and so to Dredd): its actions run nowhere.
      resource = m?.[2]?.startsWith('/') ? { name: m[1]!, uri: m[2]!, parameters: {} } : undefined;
      parameters = resource?.parameters;
      inParameters = false;
    } else if ((m = ACTION.exec(line))) {
      flush();
      action = { name: m[1]!, method: m[2]!, uri: m[3], parameters: {}, line: i + 1 };
      parameters = action.parameters;
      inParameters = false;
    } else if (/^\+ Parameters\s*$/.test(line)) {
      current = undefined;
      inParameters = true;
    } else if (REQUEST.test(line) || RESPONSE.test(line)) {
      inParameters = false;
      const status = RESPONSE.exec(line);
      current = {
        kind: status ? 'response' : 'request',
        status: Number(status?.[1] ?? 200),
        mediaType: MEDIA_TYPE.exec(line)?.[1],
        lines: [],
      };
      sections.push(current);
    } else if (/^\S/.test(line) && !line.startsWith('+')) {
      // Prose at the margin ends a body (bodies are indented) and the parameter list.
      current = undefined;
      inParameters = false;
    } else if (current) current.lines.push(line);
    else if (inParameters && parameters && /^\s+\+/.test(line)) {
      const p = parseParameter(line);
      if (p?.[1] !== undefined) parameters[p[0]] = p[1];
    }
  });
  flush();
  return transactions;
}

/** The URI of a transaction with its parameters filled in from `values` (RFC 6570 levels 1 and 3's `{?a,b}`). */
export function expandUri(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([?&]?)([^}]+)\}/g, (_, operator: string, names: string) => {
    const list = names.split(',').map((n) => n.trim());
    if (!operator) return encodeURIComponent(values[list[0]!] ?? '');
    const pairs = list.filter((n) => values[n] !== undefined).map((n) => `${n}=${encodeURIComponent(values[n]!)}`);
    return pairs.length ? `${operator}${pairs.join('&')}` : '';
  });
}
