import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { skills } from '../../db/schema/index.js';
import type { Caller } from '../auth/caller.js';
import type { ImageLimits } from '../files/image.js';
import { hasNul } from '../jsonapi/values.js';
import { AssistantError, identify, requireRole, sessionOf } from './identity.js';
import { AssistantAnswer, assistantRoute, failures, type Params, params, requestParams, send, sendFailure, SKILL_PARAMS, TAG } from './route.js';
import { checkedName, type SkillPath, type SkillRepo } from './skill-repo.js';

/** model, group and language with the reference's defaults. */
const pathOf = (p: Params): SkillPath => ({ model: p.model || 'general', group: p.group || 'Knowledge', language: p.language || 'en' });

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

/**
 * The skill endpoints of `/cms`: createSkill (image upload, optional text), modifySkill (text, with
 * JSONP), the lists of models and of a skill's languages (the other reads are in skill-reads.ts).
 */
export async function skillRoutes(app: FastifyInstance, repo: SkillRepo, limits: ImageLimits) {
  app.post(
    '/cms/createSkill.json',
    {
      schema: {
        tags: [TAG],
        operationId: 'createSkill',
        summary: 'Create a skill image (and optionally the skill)',
        description:
          'multipart/form-data: `image` (file), `image_name`, `model` (general), `group` (Knowledge), `language` ' +
          '(en), optional `skill` and `content`, `access_token`. The image is stored as a 512 x 512 JPEG in the ' +
          "language's `images` folder and committed.",
        consumes: ['multipart/form-data'],
        response: {
          200: Type.Ref(AssistantAnswer, { description: '`accepted` true, or false with the reason (no image, image name missing or taken, skill already there: nothing is written)' }),
          ...failures([400, 401, 413, 415, 422], { 415: 'The body is of a media type the server does not read (send multipart/form-data)' }),
        },
      },
    },
    async (request, reply) => {
      try {
        if (!request.isMultipart()) throw new AssistantError(400, 'Send the skill as multipart/form-data');
        const { params: fields, files: parts } = await requestParams(request, ['image'], limits.maxBytes);
        const image = parts.image?.data;
        const identity = await identify(app, request, fields);
        const caller = requireRole(identity, 'user');
        const answer = (body: object) => send(reply, 200, { ...body, session: sessionOf(identity, request) });
        if (!image) return answer({ accepted: false, message: 'Image not given' });
        const where = pathOf(fields);
        const folder = repo.folder(where);
        const imageName = fields.image_name ? checkedName('image', fields.image_name) : undefined;
        if (!imageName || (await repo.exists(join(folder, 'images', imageName)))) {
          return answer({ accepted: false, message: 'The Image name are not given or Image with same name is already present ' });
        }
        const skill = fields.skill ? checkedName('skill', fields.skill) : undefined;
        const skillFile = skill ? join(folder, `${skill}.txt`) : undefined;
        // The reference's refusal, naming the path inside the repository rather than on this server's disk.
        if (skillFile && (await repo.exists(skillFile))) return answer({ accepted: false, message: `The '${skillFile}' already exists.` });
        const jpeg = await sharp(image, { limitInputPixels: limits.maxPixels })
          .resize(512, 512, { fit: 'fill' })
          .flatten({ background: '#ffffff' })
          .jpeg()
          .toBuffer()
          .catch(() => {
            throw new AssistantError(422, 'The image could not be read');
          });
        const files: Record<string, Buffer | string> = { [join(folder, 'images', imageName)]: jpeg };
        if (skillFile) files[skillFile] = fields.content ?? '';
        await repo.commit(files, caller.email, skill ? `Created ${skill}` : `Added image ${imageName}`);
        if (skill) await upsertSkill(app, where, skill, caller, imageName);
        return answer({ accepted: true, message: skill ? `Skill ${skill} created` : `Image ${imageName} stored` });
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
      params: { ...SKILL_PARAMS, ...params({ content: 'the skill text', changelog: 'the commit message', callback: 'JSONP: a JavaScript identifier path' }) },
      failures: [400, 401],
      summary: 'Create or modify the text of a skill',
      description:
        '`model`, `group`, `language`, `skill`, `content`, `changelog` (the commit message), `access_token`; ' +
        'GET with `callback` answers JSONP. `accepted` is true only when the commit exists.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const where = pathOf(params);
      const skill = checkedName('skill', params.skill);
      if (!params.changelog) throw new AssistantError(400, 'A changelog (the commit message) is required');
      // git takes the message as an argument, and no process argument can hold a NUL.
      if (hasNul(params.changelog)) throw new AssistantError(400, 'The changelog must not contain NUL characters');
      if (!params.content) throw new AssistantError(400, 'modification is empty');
      const commit = await repo.commit({ [join(repo.folder(where), `${skill}.txt`)]: params.content }, caller!.email, params.changelog);
      const [latest] = await repo.log(1);
      if (latest?.hash !== commit) throw new AssistantError(500, 'The change was not committed');
      await upsertSkill(app, where, skill, caller!);
      return { accepted: true, message: 'Skill Modified Successfully', commit };
    },
  );

  assistantRoute(
    app,
    { url: '/cms/getModel.json', method: 'GET', operationId: 'getModels',
      failures: [400], summary: 'List the models', description: 'Folders under models/.', minimal: 'anonymous' },
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
      const group = join('models', checkedName('model', params.model || 'general'), checkedName('group', params.group || 'Knowledge'));
      const skill = checkedName('skill', params.skill || 'wikipedia');
      const found: string[] = [];
      for (const language of await repo.list(group)) if (await repo.exists(join(group, language, `${skill}.txt`))) found.push(language);
      return { accepted: true, languageJsonArray: found };
    },
  );
}
