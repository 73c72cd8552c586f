import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { loadSharp } from '../images/sharp.js';
import { skills } from '../../db/schema/index.js';
import type { Caller } from '../auth/caller.js';
import type { ImageLimits } from '../files/image.js';
import { hasNul } from '../jsonapi/index.js';
import { AssistantError, identify, rank, requireRole, sessionOf, type Identity } from './identity.js';
import {
  AssistantAnswer,
  assistantRoute,
  failures,
  type FormFile,
  type Params,
  params,
  requestParams,
  send,
  sendFailure,
  SKILL_PARAMS,
  TAG,
} from './route.js';
import { flag, flags, isPrivate, privateParam } from './flags.js';
import { checkedWhere, skillRowOf } from './skill-lookup.js';
import { checkedName, privateFolder, type RepoChanges, type SkillPath, type SkillRepo } from './skill-repo.js';

/** model, group and language with the reference's defaults. */
const pathOf = (p: Params): SkillPath =>
  checkedWhere({ model: p.model || 'general', group: p.group || 'Knowledge', language: p.language || 'en' });

/** The skill's metadata row, created when the skill is first written. */
async function upsertSkill(app: FastifyInstance, where: SkillPath, name: string, author: Caller, image?: string) {
  const [row] = await app.db
    .insert(skills)
    .values({ ...where, name, authorId: author.id, authorEmail: author.email, image })
    .onConflictDoUpdate({
      target: [skills.model, skills.group, skills.language, skills.name],
      set: { modifiedAt: new Date(), ...(image ? { image } : {}) },
    })
    .returning();
  return row!;
}

const keyOf = (where: SkillPath, name: string) =>
  and(
    eq(skills.model, where.model),
    eq(skills.group, where.group),
    eq(skills.language, where.language),
    eq(skills.name, name),
  );

/**
 * A skill text as stored: line ends as LF. Browsers send every multipart text field with CRLF line ends
 * (the HTML form encoding), which would otherwise turn each edit into a change of every line.
 */
const skillText = (text: string) => text.replace(/\r\n?/g, '\n');

/** createSkill's refusals, in the reference's words (the trailing blank is the reference's too). */
const IMAGE_NOT_GIVEN = 'Image not given';
const IMAGE_NAME_REFUSED = 'The Image name are not given or Image with same name is already present ';

/** An image name as clients send it (`images/x.jpg` or `x.jpg`): one checked segment. */
const imageNameOf = (value: string | undefined) =>
  value ? checkedName('image', value.replace(/^images\//, '')) : undefined;

/** The image as a JPEG (512 x 512 for skill images), within the pixel limit; 422 when it is no image. */
export async function toJpeg(data: Buffer, limits: ImageLimits, square = true): Promise<Buffer> {
  // Turned upright first: phone photos carry their orientation in EXIF.
  const sharp = await loadSharp();
  let image = sharp(data, { limitInputPixels: limits.maxPixels }).rotate();
  if (square) image = image.resize(512, 512, { fit: 'fill' });
  return image
    .flatten({ background: '#ffffff' })
    .jpeg()
    .toBuffer()
    .catch(() => {
      throw new AssistantError(422, 'The image could not be read');
    });
}

/**
 * Who may change a public skill: any user, as the reference, unless it is marked not `editable`
 * (changeSkillStatus), then administrators only.
 */
async function checkEditable(app: FastifyInstance, identity: Identity, where: SkillPath, name: string) {
  const [row] = await app.db.select({ editable: skills.editable }).from(skills).where(keyOf(where, name));
  if (row && !row.editable && rank(identity.role) < rank('admin'))
    throw new AssistantError(403, 'This skill is not editable; only administrators may change it');
}

/** A skill file in `folder` whose name matches ignoring case (the reference's lookup), or undefined. */
async function fileIn(repo: SkillRepo, folder: string, name: string): Promise<string | undefined> {
  const wanted = `${name}.txt`.toLowerCase();
  const file = (await repo.list(folder, true)).find((f) => f.toLowerCase() === wanted);
  return file ? join(folder, file) : undefined;
}

/**
 * createSkill as the assistant spec defines it: the `image` file part, its name (`image_name`) and the
 * language folder (`model`, `group`, `language`), no skill. The spec's rules in the spec's order: no image
 * file, then no name or a name already present in the folder's `images`, each `accepted` false; otherwise
 * the image is stored as a 512 x 512 JPEG under that name, in one commit. Unlike the editors' create, which
 * replaces an image of the same name as the reference does, this upload never replaces a picture: it names
 * no skill of its own, so a replaced picture would silently change the skills that already show it.
 */
async function createImage(
  repo: SkillRepo,
  limits: ImageLimits,
  fields: Params,
  image: Buffer | undefined,
  caller: Caller,
) {
  if (!image) return { accepted: false, message: IMAGE_NOT_GIVEN };
  const where = pathOf(fields);
  const folder = isPrivate(fields) ? privateFolder(caller.id, where.group, where.language) : repo.folder(where);
  const name = imageNameOf(fields.image_name);
  if (!name) return { accepted: false, message: IMAGE_NAME_REFUSED };
  const path = join(folder, 'images', name);
  // Checked before the image is converted (the spec's order: a taken name is refused whatever the picture),
  // and again with the repository to itself, as another upload of the name may have been committed meanwhile.
  if (await repo.exists(path)) return { accepted: false, message: IMAGE_NAME_REFUSED };
  const jpeg = await toJpeg(image, limits);
  return repo.exclusive(async (write) => {
    if (await repo.exists(path)) return { accepted: false, message: IMAGE_NAME_REFUSED };
    const commit = await write({ write: { [path]: jpeg } }, caller.email, `Added image ${name}`);
    return { accepted: true, message: `Image ${name} stored`, commit };
  });
}

/**
 * The skill endpoints of `/cms`: createSkill (the spec's image upload, and the editors' skill with its
 * image), modifySkill (the editor's move, rename and image change, and the 2017 text-only form with
 * JSONP), uploadImage, and the lists of models and of a skill's languages (the other reads are in
 * skill-reads.ts).
 */
export async function skillRoutes(app: FastifyInstance, repo: SkillRepo, limits: ImageLimits) {
  app.post(
    '/cms/createSkill.json',
    {
      schema: {
        tags: [TAG],
        operationId: 'createSkill',
        summary: 'Store a skill image, or create a skill (or a private bot) with its image',
        description:
          'multipart/form-data, in two forms; both take `model` (general), `group` (Knowledge), `language` (en), ' +
          '`private` (any value but an empty one, `false` or `0`, as the editors send `1`: the folder of a bot of the ' +
          'caller, private/<user>/<group>/<language>, never listed publicly) and `access_token`. ' +
          "Without `skill`, the assistant spec's image upload: `image` (a file) is stored as a 512 x 512 JPEG under " +
          "`image_name` in the language's `images` folder; no `image` file: `Image not given`; no `image_name`, or an " +
          'image of that name already there: `The Image name are not given or Image with same name is already present ` ' +
          '(checked in that order, both `accepted` false). ' +
          'With `skill` (the skill editors): `skill` (the name; empty: `Skill name is not given`), `content` (the text), ' +
          '`image` (a file: stored as above, replacing one of that name; or a text such as `images/default.png`: nothing ' +
          'is stored and the default image is served), `image_name`. One commit.',
        consumes: ['multipart/form-data'],
        response: {
          200: Type.Ref(AssistantAnswer, {
            description:
              '`accepted` true, or false with the reason (no image, image name missing or, without `skill`, taken; an empty skill name, skill already there: nothing is written)',
          }),
          ...failures([400, 401, 413, 415, 422], {
            415: 'The body is of a media type the server does not read (send multipart/form-data)',
          }),
        },
      },
    },
    async (request, reply) => {
      try {
        if (!request.isMultipart()) throw new AssistantError(400, 'Send the skill as multipart/form-data');
        const { params: fields, files: parts } = await requestParams(request, ['image'], limits.maxBytes);
        const identity = await identify(app, request, fields);
        const caller = requireRole(identity, 'user');
        const answer = (body: object) => send(reply, 200, { ...body, session: sessionOf(identity, request) });
        const image = parts.image?.data;
        // The spec's request names no skill; the editors always send `skill`, so an empty one is a name left out.
        if (fields.skill === undefined) return answer(await createImage(repo, limits, fields, image, caller));
        if (!fields.skill) return answer({ accepted: false, message: 'Skill name is not given' });
        // susi.ai sends `image=images/default.png` as text when the author chose no picture.
        const imageText = image ? undefined : imageNameOf(fields.image);
        if (!image && !imageText) return answer({ accepted: false, message: IMAGE_NOT_GIVEN });
        const where = pathOf(fields);
        const bot = isPrivate(fields);
        const folder = bot ? privateFolder(caller.id, where.group, where.language) : repo.folder(where);
        const skill = checkedName('skill', fields.skill);
        const imageName = imageNameOf(fields.image_name);
        if (image && !imageName) return answer({ accepted: false, message: IMAGE_NAME_REFUSED });
        const files: Record<string, Buffer | string> = {
          [join(folder, `${skill}.txt`)]: skillText(fields.content ?? ''),
        };
        // As the reference, an image of the same name is replaced.
        if (image) files[join(folder, 'images', imageName!)] = await toJpeg(image, limits);
        const written = await repo.exclusive(async (write) => {
          // The reference's refusal, naming the path inside the repository rather than on this server's disk.
          const existing = await fileIn(repo, folder, skill);
          if (existing) return { refused: `The '${existing}' already exists.` };
          return { commit: await write({ write: files }, caller.email, `Created ${skill}`) };
        });
        if ('refused' in written) return answer({ accepted: false, message: written.refused });
        const { commit } = written;
        if (!bot) await upsertSkill(app, where, skill, caller, imageName ?? imageText);
        return answer({ accepted: true, message: bot ? `Bot ${skill} created` : `Skill ${skill} created`, commit });
      } catch (err) {
        return sendFailure(reply, err);
      }
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/modifySkill.json',
      method: ['GET', 'POST'],
      operationId: 'modifySkill',
      params: {
        ...SKILL_PARAMS,
        ...params({
          content: 'the skill text',
          changelog: 'the commit message (the editor form: default `Modified <skill>`)',
          OldModel: 'editor form: the model the skill is in (general)',
          OldGroup: 'editor form: the group the skill is in (Knowledge)',
          OldLanguage: 'editor form: the language the skill is in (en)',
          OldSkill: 'editor form: the name of the skill to change',
          NewModel: 'editor form: the model to move it to (the old one)',
          NewGroup: 'editor form: the group to move it to (the old one)',
          NewLanguage: 'editor form: the language to move it to (the old one)',
          NewSkill: 'editor form: the new name (the old one; blanks become `_`)',
          old_image_name: 'editor form: the current image (`x.jpg` or `images/x.jpg`)',
          new_image_name: 'editor form: the new image name',
          image_name_changed:
            'editor form: `true` when the image is renamed; not read, as a `new_image_name` other than `old_image_name` renames it',
        }),
        ...flags({ imageChanged: 'editor form: true when `image` is a new picture' }),
        ...privateParam('editor form: a bot of the caller (private/<user>/<group>/<language>)'),
      },
      files: ['image'],
      maxFileBytes: limits.maxBytes,
      failures: [400, 401, 403, 413, 422],
      failureDescriptions: { 403: 'The skill is not editable (only administrators may change it)' },
      summary: 'Change a skill: its text, name, place and image',
      description:
        'The editor form (POST multipart, as susi_skill_cms and susi.ai send it): `OldModel`, `OldGroup`, `OldLanguage`, ' +
        '`OldSkill`, `NewModel`, `NewGroup`, `NewLanguage`, `NewSkill`, `content`, `changelog`, `imageChanged` with an ' +
        '`image` file, `old_image_name`, `new_image_name`, `image_name_changed`, `private=1`: the skill is moved or renamed ' +
        '(git mv: its history follows), the image replaced or renamed, all in one commit; `{"accepted": true, "message": ' +
        '"Skill updated"}`; a skill that does not exist or a name taken is `accepted` false. The 2017 form: `model`, ' +
        '`group`, `language`, `skill`, `content`, `changelog` (required), GET with `callback` for JSONP. Any user may ' +
        'change public skills, except those marked not editable (administrators only).',
      minimal: 'user',
    },
    async ({ params, files, caller, identity }) => {
      if (params.OldSkill !== undefined || params.NewSkill !== undefined)
        return modifyFromEditor(app, repo, limits, params, files, identity, caller!);
      const where = pathOf(params);
      const skill = checkedName('skill', params.skill);
      const file = join(repo.folder(where), `${skill}.txt`);
      if (!params.changelog) throw new AssistantError(400, 'A changelog (the commit message) is required');
      // git takes the message as an argument, and no process argument can hold a NUL.
      if (hasNul(params.changelog)) throw new AssistantError(400, 'The changelog must not contain NUL characters');
      if (!params.content) throw new AssistantError(400, 'modification is empty');
      await checkEditable(app, identity, where, skill);
      const commit = await repo.commit({ [file]: skillText(params.content) }, caller!.email, params.changelog);
      await upsertSkill(app, where, skill, caller!);
      return { accepted: true, message: 'Skill Modified Successfully', commit };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/uploadImage.json',
      method: 'POST',
      operationId: 'uploadSkillImage',
      params: params({ image_name: 'the file name of the image' }),
      files: ['image'],
      maxFileBytes: limits.maxBytes,
      failures: [400, 401, 413, 422],
      summary: 'Upload an image (a bot avatar or background)',
      description:
        'multipart/form-data: `image` (file), `image_name`, `access_token`. Stored as JPEG in the skill repository at ' +
        '`uploads/<uuid>/<image_name>` (one commit; a random folder, as the reference, so the path cannot be guessed); ' +
        'answers `image_path` = `<uuid>/<image_name>`, which GET /cms/getImage.png?image=<image_path> serves.',
      minimal: 'user',
    },
    async ({ params, files, caller }) => {
      if (!files.image) return { accepted: false, message: 'Image not given' };
      if (!params.image_name) return { accepted: false, message: 'The Image name is not given' };
      const name = checkedName('image', params.image_name);
      const jpeg = await toJpeg(files.image.data, limits, false);
      const path = `${randomUUID()}/${name}`;
      await repo.commit({ [join('uploads', path)]: jpeg }, caller!.email, 'Uploaded an image');
      return { accepted: true, message: 'Image uploaded', image_path: path };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getModel.json',
      method: 'GET',
      operationId: 'getModels',
      failures: [400],
      summary: 'List the models',
      description: 'Folders under models/.',
      minimal: 'anonymous',
    },
    async () => ({ accepted: true, modelsArray: await repo.list('models') }),
  );

  assistantRoute(
    app,
    {
      url: '/cms/getLanguage.json',
      method: 'GET',
      operationId: 'getLanguage',
      params: params({ model: 'model (general)', group: 'group (Knowledge)', skill: 'skill name (wikipedia)' }),
      failures: [400],
      summary: 'Languages a skill exists in',
      description: '`model` (general), `group` (Knowledge), `skill` (wikipedia).',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const group = join(
        'models',
        checkedName('model', params.model || 'general'),
        checkedName('group', params.group || 'Knowledge'),
      );
      const skill = checkedName('skill', params.skill || 'wikipedia');
      const found: string[] = [];
      for (const language of await repo.list(group))
        if (await repo.exists(join(group, language, `${skill}.txt`))) found.push(language);
      return { accepted: true, languageJsonArray: found };
    },
  );
}

/**
 * modifySkill as the editors send it: the skill at Old* is written with `content` and moved to New*
 * (git mv, so its history follows), its image replaced (`imageChanged` with a file) or renamed, in one
 * commit. A private bot (`private=1`) lives in the caller's own folder, so only its owner reaches it.
 */
async function modifyFromEditor(
  app: FastifyInstance,
  repo: SkillRepo,
  limits: ImageLimits,
  p: Params,
  files: Record<string, FormFile>,
  identity: Identity,
  caller: Caller,
) {
  const bot = isPrivate(p);
  const oldWhere = checkedWhere({
    model: p.OldModel || 'general',
    group: p.OldGroup || 'Knowledge',
    language: p.OldLanguage || 'en',
  });
  const newWhere = checkedWhere({
    model: p.NewModel || oldWhere.model,
    group: p.NewGroup || oldWhere.group,
    language: p.NewLanguage || oldWhere.language,
  });
  const folderOf = (where: SkillPath) =>
    bot ? privateFolder(caller.id, where.group, where.language) : repo.folder(where);
  const oldFolder = folderOf(oldWhere);
  const newFolder = folderOf(newWhere);
  const oldName = checkedName('skill', p.OldSkill);
  // The editor turns blanks of a new name into `_` (the path it opens next); an unchanged name stays as it is.
  const newSkill = p.NewSkill?.trim();
  const wantedName = newSkill && newSkill !== oldName ? checkedName('skill', newSkill.replace(/\s+/g, '_')) : undefined;
  const oldImage = imageNameOf(p.old_image_name);
  const newImage = imageNameOf(p.new_image_name) ?? oldImage;
  const changelog = p.changelog || `Modified ${oldName}`;
  if (hasNul(changelog)) throw new AssistantError(400, 'The changelog must not contain NUL characters');

  const image = flag(p.imageChanged) ? files.image : undefined;
  if (image && !newImage)
    return { accepted: false, message: 'The Image name not given or Image with same name is already present ' };
  const jpeg = image ? await toJpeg(image.data, limits) : undefined;
  const content = p.content === undefined ? undefined : skillText(p.content);
  if (content === undefined) return { accepted: false, message: "Skill doesn't exists" };
  // What is checked (the skill is there, the new name free) holds until the commit.
  return repo.exclusive(async (write) => {
    const oldPath = await fileIn(repo, oldFolder, oldName);
    if (!oldPath) return { accepted: false, message: "Skill doesn't exists" };
    const actualOld = oldPath.slice(oldFolder.length + 1, -4);
    const newName = wantedName ?? actualOld;
    if (!bot) {
      await checkEditable(app, identity, oldWhere, actualOld);
      if (newFolder !== oldFolder) await checkEditable(app, identity, newWhere, newName);
    }
    const newPath = join(newFolder, `${newName}.txt`);
    const moving = newPath !== oldPath;
    if (moving && (await fileIn(repo, newFolder, newName)) && newPath.toLowerCase() !== oldPath.toLowerCase()) {
      return { accepted: false, message: `The '${newPath}' already exists.` };
    }

    const changes: Required<RepoChanges> = { move: [], remove: [], write: {} };
    if (moving) changes.move.push([oldPath, newPath]);
    changes.write[newPath] = content;
    const oldImagePath = oldImage && join(oldFolder, 'images', oldImage);
    const newImagePath = newImage && join(newFolder, 'images', newImage);
    if (jpeg && newImagePath) {
      if (oldImagePath && oldImagePath !== newImagePath && (await repo.exists(oldImagePath)))
        changes.remove.push(oldImagePath);
      changes.write[newImagePath] = jpeg;
    } else if (
      oldImagePath &&
      newImagePath &&
      oldImagePath !== newImagePath &&
      (await repo.exists(oldImagePath)) &&
      !(await repo.exists(newImagePath))
    ) {
      // A rename (image_name_changed), a move to another folder, or susi_skill_cms's image change, whose form
      // carries the text `undefined` instead of the file: the picture keeps its bytes under the new name.
      changes.move.push([oldImagePath, newImagePath]);
    }
    const commit = await write(changes, caller.email, changelog);

    if (!bot) {
      if (moving) {
        const [row] = await app.db.select({ id: skills.id }).from(skills).where(keyOf(oldWhere, actualOld));
        if (row) {
          // A row at the new place has no file (the name was free): the moved skill keeps its ratings and usage.
          await app.db.delete(skills).where(keyOf(newWhere, newName));
          await app.db
            .update(skills)
            .set({ ...newWhere, name: newName })
            .where(eq(skills.id, row.id));
        }
      }
      const row = await skillRowOf(app, repo, { where: newWhere, name: newName, path: newPath });
      await app.db
        .update(skills)
        .set({ modifiedAt: new Date(), ...(newImage ? { image: newImage } : {}) })
        .where(eq(skills.id, row.id));
    }
    return { accepted: true, message: 'Skill updated', commit };
  });
}
