import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadSharp } from '../images/sharp.js';
import { skills, users } from '../../db/schema/index.js';
import { AssistantError, identify, rank } from './identity.js';
import { byRating, type SkillRecord } from './metrics.js';
import { AssistantFailure, assistantRoute, type Params, params, paramsOf, SKILL_PARAMS, TAG } from './route.js';
import { flag, flags, isPrivate, privateParam, strictFlag, strictFlags } from './flags.js';
import { catalogOf } from './skill-catalog.js';
import { checkedName, privateFolder, type SkillRepo } from './skill-repo.js';

/**
 * A parameter as the editor sends it: its GET query strings are built without encoding, so a missing
 * value arrives as the text `undefined` (or `null`); those, and blanks, are absent.
 */
export function given(p: Params, name: string): string | undefined {
  const value = p[name]?.trim();
  return value === undefined || value === '' || value === 'undefined' || value === 'null' ? undefined : value;
}

/** model, group and language of a request with the reference's defaults, each checked. */
const whereOf = (p: Params, defaults: { group?: string } = {}) => ({
  model: checkedName('model', given(p, 'model') ?? 'general'),
  group: checkedName('group', given(p, 'group') ?? defaults.group ?? 'Knowledge'),
  language: checkedName('language', given(p, 'language') ?? 'en'),
});

/** Names of the entries of a folder of the repository (dotfiles skipped, as the reference's lists skip them). */
async function entriesOf(repo: SkillRepo, path: string) {
  await repo.current();
  const entries = await readdir(join(repo.root, path), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.name.startsWith('.'));
}

// ---------------------------------------------------------------------------------------------------
// getImage.png

interface Image {
  data: Buffer;
  type: string;
  modified: Date;
  etag: string;
  /** Extra headers (an SVG is sandboxed). */
  headers?: Record<string, string>;
}

/** The weak validator the app's conditional-request plugin gives every in-memory answer (the same value, so the two agree). */
const etagOf = (data: Buffer) => `W/"${createHash('sha1').update(data).digest('base64url')}"`;

/** The media type of image bytes; SVG (text) only when named so; undefined when they are no image. */
function imageTypeOf(data: Buffer, name: string): string | undefined {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (data.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  if (/\.svg$/i.test(name) && /^\s*</.test(data.subarray(0, 256).toString('utf8'))) return 'image/svg+xml';
  return undefined;
}

let defaultImage: Promise<Image> | undefined;
/** The image answered for every image that is not there (the reference never answers 404): a plain grey square. */
function theDefaultImage(): Promise<Image> {
  defaultImage ??= loadSharp()
    .then((sharp) =>
      sharp({ create: { width: 128, height: 128, channels: 4, background: { r: 224, g: 224, b: 224, alpha: 1 } } })
        .png()
        .toBuffer(),
    )
    .then((data) => ({
      data,
      type: 'image/png',
      modified: new Date(Math.floor(Date.now() / 1000) * 1000),
      etag: etagOf(data),
    }));
  return defaultImage;
}

/** The image at a path of the repository: a regular file (never a link) holding image bytes. */
async function imageAt(repo: SkillRepo, path: string): Promise<Image | undefined> {
  await repo.current();
  const full = join(repo.root, path);
  const info = await lstat(full).catch(() => undefined);
  if (!info?.isFile() || info.size > 32 * 1024 * 1024) return undefined;
  const data = await readFile(full);
  const type = imageTypeOf(data, path);
  if (!type) return undefined;
  const headers: Record<string, string> =
    type === 'image/svg+xml'
      ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }
      : {};
  return { data, type, modified: new Date(Math.floor(info.mtimeMs / 1000) * 1000), etag: etagOf(data), headers };
}

/** `images/x.png` or `x.png`: at most two segments, each a checked name. */
const imagePath = (image: string) => {
  const parts = image.split('/');
  if (parts.length > 2) throw new AssistantError(400, 'Bad image name');
  return join(...parts.map((part) => checkedName('image', part)));
};

/** Which file of the repository a getImage.png request names (the reference's GetImageServlet), undefined when none. */
async function imageRequested(
  app: FastifyInstance,
  repo: SkillRepo,
  request: FastifyRequest,
  p: Params,
): Promise<string | undefined> {
  const group = given(p, 'group');
  const language = given(p, 'language');
  const image = given(p, 'image');
  if (group && language && image) {
    // A private skill's image: the caller's own tree (the token stands in for the model).
    if (given(p, 'access_token')) {
      const { caller } = await identify(app, request, p);
      if (!caller) return undefined;
      return join(privateFolder(caller.id, group, language), imagePath(image));
    }
    const model = given(p, 'model');
    if (!model) return undefined;
    return join(repo.folder({ model, group, language }), imagePath(image));
  }
  // An uploaded image: `<uuid>/<file>` under `uploads/`.
  if (image) {
    const [folder, file, ...rest] = image.split('/');
    if (!folder || !file || rest.length > 0) return undefined;
    return join('uploads', checkedName('upload folder', folder), checkedName('image', file));
  }
  return undefined;
}

async function sendImage(reply: FastifyReply, image: Image, cacheControl: string) {
  reply
    .header('access-control-allow-origin', '*')
    .header('cache-control', cacheControl)
    .header('etag', image.etag)
    .header('last-modified', image.modified.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .headers(image.headers ?? {});
  // A conditional request is answered 304 by the conditional plugin (ETag or Last-Modified).
  return reply.code(200).type(image.type).send(image.data);
}

/** Image answers as the contract declares them. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/svg+xml'];
const imageResponse = {
  description: 'The image bytes (type from the bytes), or the default image when there is no such image: never a 404',
  content: Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
};

// ---------------------------------------------------------------------------------------------------
// getSkillList.json

const SORTS: Record<string, (a: SkillRecord, b: SkillRecord) => number> = {
  creation_date: (a, b) => a.creationTime.localeCompare(b.creationTime),
  modified_date: (a, b) => a.lastModifiedTime.localeCompare(b.lastModifiedTime),
  lexicographical: (a, b) => a.skill_name.toLowerCase().localeCompare(b.skill_name.toLowerCase()),
  // The reference's "most rating" (descending: at least ten ratings first, then the average) and "top rated" (the average).
  rating: (a, b) => -byRating(a, b),
  top_rated: (a, b) => a.skill_rating.stars.avg_star - b.skill_rating.stars.avg_star,
  usage: (a, b) => a.usage_count - b.usage_count,
  feedback: (a, b) => a.skill_rating.feedback_count - b.skill_rating.feedback_count,
};

const SEARCH_FIELDS = ['skill_name', 'author', 'descriptions', 'examples'] as const;

const integer = (value: string | undefined, fallback: number, message: string) => {
  if (value === undefined) return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw new AssistantError(422, message);
  return Number(value);
};

/**
 * The read endpoints of `/cms` as the editor (susi_skill_cms, susi.ai) and the Android app call them:
 * images, a skill's metadata, skill lists with the reference's filters, skills by author, a skill's
 * text (also a private bot's), groups and languages. Public lists come from the skill catalog (the
 * files of `models/`), never from the private trees.
 */
export async function skillReadRoutes(app: FastifyInstance, repo: SkillRepo) {
  const catalog = catalogOf(app, repo);

  app.get(
    '/cms/getImage.png',
    {
      schema: {
        tags: [TAG],
        operationId: 'getImage',
        summary: 'A skill image',
        description:
          'A public skill image: `model`, `group`, `language`, `image` (`images/x.png` as the skill file writes it). A private ' +
          "bot's image: `access_token` instead of `model` (the caller's private tree). An uploaded image: `image=<folder>/<file>` " +
          'alone. Every name is one checked path segment. The type comes from the bytes; `ETag`, `Last-Modified` and ' +
          '`Cache-Control` are set and a conditional GET is answered 304. An image that is not there answers the default image.',
        querystring: Type.Object({
          model: Type.Optional(Type.String({ description: 'model of a public skill (general)' })),
          group: Type.Optional(Type.String({ description: 'group of the skill' })),
          language: Type.Optional(Type.String({ description: 'language of the skill' })),
          image: Type.Optional(
            Type.String({ description: '`images/<file>` of a skill, or `<folder>/<file>` of an upload' }),
          ),
          access_token: Type.Optional(
            Type.String({ description: "the caller's token: the image of the caller's private bot" }),
          ),
          avatar: Type.Optional(Type.String({ description: 'accepted and ignored (avatars are not served here)' })),
          sliderImage: Type.Optional(Type.String({ description: 'accepted and ignored (answers the default image)' })),
        }),
        response: {
          200: imageResponse,
          304: {
            description: 'Not modified (the `If-None-Match` or `If-Modified-Since` of the request still holds)',
            type: 'null',
          },
          400: Type.Ref(AssistantFailure, { description: 'A parameter given twice' }),
        },
      },
    },
    async (request, reply) => {
      const p = paramsOf(request);
      let found: Image | undefined;
      let inPrivateTree = false;
      try {
        const path = await imageRequested(app, repo, request, p);
        inPrivateTree = path?.startsWith('private') ?? false;
        if (path) found = await imageAt(repo, path);
      } catch (err) {
        // A bad name is no image: the default one, as for any image that is not there.
        if (!(err instanceof AssistantError)) throw err;
      }
      if (found) return sendImage(reply, found, inPrivateTree ? 'private, max-age=600' : 'public, max-age=600');
      return sendImage(reply, await theDefaultImage(), 'public, max-age=60');
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkillMetadata.json',
      method: 'GET',
      operationId: 'getSkillMetadata',
      params: SKILL_PARAMS,
      summary: "A skill's metadata",
      description:
        '`model`, `group`, `language`, `skill` (all required: else `accepted` false, "Error: Bad parameter call"). ' +
        '`skill_metadata` as the reference records a skill: the members written in the file (`::name` as `skill_name`, ' +
        '`::image`, `::author`, ...), status flags, ratings and usage. A skill that is not there answers the ' +
        "reference's defaults (nulls, no usage).",
      minimal: 'anonymous',
    },
    async ({ params }) => {
      if (!given(params, 'model') || !given(params, 'group') || !given(params, 'language') || !given(params, 'skill')) {
        return { accepted: false, message: 'Error: Bad parameter call' };
      }
      const where = whereOf(params);
      const skill = checkedName('skill', given(params, 'skill'));
      const found = await catalog.recordOf(where, skill, 7);
      const epoch = new Date(0).toISOString();
      const skill_metadata = found ?? {
        ...where,
        developer_privacy_policy: null,
        descriptions: null,
        image: null,
        author: null,
        author_url: null,
        author_email: null,
        skill_name: null,
        protected: false,
        reviewed: false,
        editable: true,
        staffPick: false,
        systemSkill: false,
        terms_of_use: null,
        dynamic_content: false,
        examples: null,
        skill_rating: null,
        usage_count: 0,
        skill_tag: null,
        lastModifiedTime: epoch,
        creationTime: epoch,
      };
      return { skill_metadata, accepted: true, message: "Success: Fetched Skill's Metadata" };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkillList.json',
      method: 'GET',
      operationId: 'getSkillList',
      params: {
        ...params({
          model: 'model (general)',
          group: 'group (All)',
          language: 'languages, comma-separated (en)',
          filter_name: '`ascending` or `descending`',
          filter_type: 'creation_date, modified_date, lexicographical, rating, top_rated, usage or feedback',
          q: 'search text (a regular-expression-free substring, ignoring case)',
          search_type: 'fields searched, comma-separated: skill_name, author, descriptions, examples (all)',
          avg_rating: 'with applyFilter: at least this average',
          duration: 'days: usage counted over them; with a date filter, skills created or changed within them',
          count: 'skills per page',
          page: 'page (0-based)',
          offset: 'skills skipped (page x count when count is given)',
        }),
        ...flags({ applyFilter: 'true: sort by `filter_type` and answer `filteredData`' }),
        // The reference answers 400 "Bad service call." to a value that is neither true nor false.
        ...strictFlags({ reviewed: 'true: reviewed skills only', staff_picks: 'true: staff picks only' }),
        ...privateParam("the caller's private bots instead (`chatbots`)"),
      },
      failures: [400, 422],
      summary: 'Skills by group and language, filtered and sorted',
      description:
        "The reference's ListSkillService: `skills` (by skill tag), with `applyFilter=true` also `filteredData` sorted by " +
        '`filter_type` (`filter_name` ascending or descending; both required: 422 "Bad Filters."), `pageCount` with ' +
        "`count`, `skillStats` for operators and above. `private=1` with a token answers the caller's bots " +
        '`{chatbots:[{name, language, group}]}` (`accepted` false, "User has no chatbots." when there are none).',
      minimal: 'anonymous',
    },
    async ({ params, identity }) => {
      if (isPrivate(params) && identity.caller) {
        const chatbots: { name: string; language: string; group: string }[] = [];
        const root = join('private', String(identity.caller.id));
        for (const group of await repo.list(root)) {
          for (const language of await repo.list(join(root, group))) {
            for (const file of await repo.list(join(root, group, language), true)) {
              if (file.endsWith('.txt')) chatbots.push({ name: file.slice(0, -4), language, group });
            }
          }
        }
        if (chatbots.length === 0) return { accepted: false, message: 'User has no chatbots.' };
        return { chatbots, accepted: true, message: 'All chatbots of user fetched.' };
      }
      const model = checkedName('model', given(params, 'model') ?? 'general');
      const group = given(params, 'group') ?? 'All';
      const wantedGroup = group === 'All' ? undefined : checkedName('group', group);
      const languageList = given(params, 'language') ?? 'en';
      const languages = languageList
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean);
      const reviewed = strictFlag(given(params, 'reviewed'), 'Bad service call.') ?? false;
      const staffPicks = strictFlag(given(params, 'staff_picks'), 'Bad service call.') ?? false;
      const applyFilter = flag(given(params, 'applyFilter'));
      const count = integer(given(params, 'count'), -1, 'Invalid count value.');
      if (given(params, 'count') !== undefined && count < 0)
        throw new AssistantError(422, 'Invalid count value. It should be positive.');
      const page = integer(given(params, 'page'), 0, 'Invalid page value.');
      const duration = integer(given(params, 'duration'), -1, 'Invalid duration value.');
      const avgRating = integer(given(params, 'avg_rating'), -1, 'Invalid avg_rating value.');
      const offset =
        count >= 0
          ? Math.max(page, 0) * count
          : Math.max(integer(given(params, 'offset'), 0, 'Invalid offset value.'), 0);
      const q = given(params, 'q')?.toLowerCase();
      const searchTypes = (given(params, 'search_type') ?? SEARCH_FIELDS.join(',')).split(',').map((s) => s.trim());

      const all = await catalog.records(
        (e) =>
          e.model === model && languages.includes(e.language) && (wantedGroup === undefined || e.group === wantedGroup),
        duration,
      );
      all.sort(
        (a, b) =>
          a.group.localeCompare(b.group) ||
          a.language.localeCompare(b.language) ||
          a.skill_tag.localeCompare(b.skill_tag),
      );
      const listed = all.filter((r) => (!reviewed || r.reviewed) && (!staffPicks || r.staffPick));
      const answer: Record<string, unknown> = { model, group, language: languageList };
      if (applyFilter) {
        // Both must be there; an empty or unknown type leaves the list unsorted (the browse page's first request sends `filter_type=`).
        const filterName = params.filter_name?.trim().toLowerCase();
        const filterType = params.filter_type?.trim().toLowerCase();
        if (filterName === undefined || filterType === undefined) throw new AssistantError(422, 'Bad Filters.');
        const order = SORTS[filterType];
        const sorted = order
          ? [...listed].sort((a, b) => (filterName === 'ascending' ? order(a, b) : order(b, a)))
          : [...listed];
        const since =
          duration > 0 ? new Date(Date.now() - duration * 86_400_000).toISOString().slice(0, 10) : undefined;
        const matches = (r: SkillRecord) => {
          if (avgRating > 0 && r.skill_rating.stars.avg_star < avgRating) return false;
          if (since && filterType === 'creation_date' && r.creationTime.slice(0, 10) < since) return false;
          if (since && filterType === 'modified_date' && r.lastModifiedTime.slice(0, 10) < since) return false;
          if (q) {
            return searchTypes.some((field) =>
              field === 'examples'
                ? r.examples.some((e) => e.toLowerCase().includes(q))
                : (SEARCH_FIELDS as readonly string[]).includes(field) &&
                  String(r[field as 'skill_name'])
                    .toLowerCase()
                    .includes(q),
            );
          }
          return true;
        };
        const filtered = sorted.filter(matches);
        answer.filteredData = count >= 0 ? filtered.slice(offset, offset + count) : filtered.slice(offset);
        if (count > 0) answer.pageCount = Math.ceil(listed.length / count);
      } else if (count > 0) {
        answer.pageCount = Math.ceil(listed.length / count);
      }
      const paged = !applyFilter && count >= 0 ? listed.slice(offset, offset + count) : listed;
      answer.skills = Object.fromEntries(paged.map((r) => [r.skill_tag, r]));
      if (rank(identity.role) >= rank('operator')) {
        answer.skillStats = {
          totalSkills: all.length,
          reviewedSkills: all.filter((r) => r.reviewed).length,
          nonReviewedSkills: all.filter((r) => !r.reviewed).length,
          editableSkills: all.filter((r) => r.editable).length,
          nonEditableSkills: all.filter((r) => !r.editable).length,
          staffPicks: all.filter((r) => r.staffPick).length,
          systemSkills: all.filter((r) => r.systemSkill).length,
        };
      }
      return { ...answer, accepted: true, message: 'Success: Fetched skill list' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkillsByAuthor.json',
      method: 'GET',
      operationId: 'getSkillsByAuthor',
      params: params({
        author: 'author name (`::author` contains it)',
        author_email: 'author e-mail (`::author_email`, or the account that wrote the skill)',
        model: 'model (general)',
        group: 'group (All)',
        language: 'language (en)',
      }),
      failures: [400],
      summary: 'Skills of an author',
      description:
        '`author_email`: the records of the skills whose `::author_email` is it or that its account wrote, as `author_skills` ' +
        '(with `author_avatar`); `author` alone: the skills whose `::author` contains it, as members `"0"`, `"1"`, ... ' +
        '(the skill paths). Neither: 400 "Bad service call, missing arguments.".',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const author = given(params, 'author');
      const email = given(params, 'author_email');
      if (author === undefined && email === undefined)
        throw new AssistantError(400, 'Bad service call, missing arguments.');
      if (email === undefined) {
        const found = (await catalog.entries()).filter((e) => e.meta.author?.includes(author!));
        return { ...Object.fromEntries(found.map((e, i) => [String(i), e.path])), accepted: true, message: 'Success' };
      }
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
        throw new AssistantError(400, 'Invalid email address.');
      const model = checkedName('model', given(params, 'model') ?? 'general');
      const group = given(params, 'group') ?? 'All';
      const wantedGroup = group === 'All' ? undefined : checkedName('group', group);
      const language = checkedName('language', given(params, 'language') ?? 'en');
      const written = await app.db
        .select({ group: skills.group, language: skills.language, name: skills.name })
        .from(skills)
        .where(eq(skills.authorEmail, email));
      const byAccount = new Set(written.map((r) => `${r.group}\0${r.language}\0${r.name}`));
      const records = await catalog.records(
        (e) => e.model === model && e.language === language && (wantedGroup === undefined || e.group === wantedGroup),
      );
      const author_skills = records.filter(
        (r) =>
          r.author_email.toLowerCase() === email.toLowerCase() ||
          byAccount.has(`${r.group}\0${r.language}\0${r.skill_tag}`),
      );
      if (author_skills.length === 0) return { accepted: true, message: "Author hasn't created any Skill yet." };
      return {
        author_avatar: '',
        author_skills,
        accepted: true,
        message: 'Successfully fetched all Skills created by author.',
      };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkill.json',
      method: 'GET',
      operationId: 'getSkill',
      params: {
        ...SKILL_PARAMS,
        ...privateParam("the skill of the caller's private tree (a bot)"),
        ...params({ email: "administrators: whose private tree (the user's e-mail)" }),
      },
      failures: [400],
      summary: 'The text of a skill',
      description:
        '`model` (general), `group` (Knowledge), `language` (en), `skill` (wikipedia): `{accepted, text}`; a skill that is not ' +
        "there answers `accepted` false (HTTP 200). `private=1` reads the caller's private tree (an administrator may name " +
        'another user with `email`). Reading counts no usage.',
      minimal: 'anonymous',
    },
    async ({ params, identity }) => {
      const where = whereOf(params);
      const skill = checkedName('skill', given(params, 'skill') ?? 'wikipedia');
      let folder: string | undefined = repo.folder(where);
      if (isPrivate(params)) {
        let owner = identity.caller?.id;
        const email = given(params, 'email');
        if (email !== undefined && rank(identity.role) >= rank('admin')) {
          const [user] = await app.db
            .select({ id: users.id })
            .from(users)
            .where(eq(users.email, email.slice(0, 254)));
          owner = user?.id;
        }
        folder = owner === undefined ? undefined : privateFolder(owner, where.group, where.language);
      }
      if (folder !== undefined) {
        const wanted = `${skill}.txt`;
        const files = await repo.list(folder, true);
        const file = files.find((f) => f === wanted) ?? files.find((f) => f.toLowerCase() === wanted.toLowerCase());
        if (file) return { accepted: true, text: await repo.read(join(folder, file)) };
      }
      return { accepted: false, message: 'Skill does not exist.' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getGroups.json',
      method: 'GET',
      operationId: 'getGroups',
      params: params({ model: 'model (general)' }),
      failures: [400],
      summary: 'List the groups of a model',
      description: '`model` (general): the group folders, sorted.',
      minimal: 'anonymous',
    },
    async ({ params }) => ({
      accepted: true,
      groups: await repo.list(join('models', checkedName('model', given(params, 'model') ?? 'general'))),
      message: 'Success: Fetched group list',
    }),
  );

  assistantRoute(
    app,
    {
      url: '/cms/getAllLanguages.json',
      method: 'GET',
      operationId: 'getAllLanguages',
      params: params({
        model: 'model (general)',
        group: 'group (none: the languages of Knowledge; All: of every group)',
      }),
      failures: [400],
      summary: 'List the languages of a group',
      description:
        '`model` (general), `group`. Without `group`: the language folders of `Knowledge`. With a group, or `All` for every ' +
        "group: the language folders that hold more than one entry (the reference's GetAllLanguages).",
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const model = join('models', checkedName('model', given(params, 'model') ?? 'general'));
      const group = given(params, 'group');
      if (group === undefined) return { accepted: true, languagesArray: await repo.list(join(model, 'Knowledge')) };
      const groups = group === 'All' ? await repo.list(model) : [checkedName('group', group)];
      const languages = new Set<string>();
      for (const g of groups) {
        for (const language of await repo.list(join(model, g))) {
          if ((await entriesOf(repo, join(model, g, language))).length > 1) languages.add(language);
        }
      }
      return { accepted: true, languagesArray: [...languages].sort() };
    },
  );
}
