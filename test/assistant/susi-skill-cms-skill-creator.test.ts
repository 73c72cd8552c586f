/**
 * Writing skills as the editors do: susi_skill_cms src/components/SkillCreator/SkillCreator.js (create,
 * then save edits, rename, move, change the image), susi.ai src/components/cms/SkillCreator/SkillWizard.js
 * (a skill without a picture) and the bot builder (`private=1`).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { makeImage } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';
import { editorApp, git } from '../helpers/skill-editor.js';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

t.test('skill editors', async (t) => {
  const { app, repo, postForm, ajaxGet, head } = await editorApp(t);
  const author = await seedUser(app);
  const other = await seedUser(app);
  const admin = await seedUser(app, { admin: true });
  const lang = join(repo, 'models/general/Science/en');
  const code = (email: string, body: string, image = 'images/solar.png') =>
    `::protected No\n::author_email ${email}\n::name Solar System\n::image ${image}\n${body}`;

  /** SkillCreator.js handleSubmit, mode 'create' (lines 674-685). */
  const create = (
    token: string,
    o: { group: string; language?: string; name: string; imageUrl: string; file?: Buffer; code: string; bot?: boolean },
  ) =>
    postForm(
      '/cms/createSkill.json',
      {
        model: 'general',
        group: o.group,
        language: o.language ?? 'en',
        skill: o.name.trim().replace(/\s/g, '_'),
        content: o.code,
        image_name: o.imageUrl.replace('images/', ''),
        access_token: token,
        ...(o.bot ? { private: '1' } : {}),
      },
      o.file ? [['image', o.imageUrl.replace('images/', ''), o.file]] : [],
    );

  /** SkillCreator.js handleSubmit, mode 'edit' (lines 729-753): `let file;` shadows the picture, so `image` is the text `undefined`. */
  const edit = (
    token: string,
    o: {
      old: [string, string, string];
      group: string;
      language: string;
      name: string;
      commitMessage: string;
      code: string;
      oldImageUrl: string;
      imageUrl: string;
      imageNameChanged: boolean;
      bot?: boolean;
    },
  ) =>
    postForm('/cms/modifySkill.json', {
      OldModel: 'general',
      OldGroup: o.old[0],
      OldLanguage: o.old[1],
      OldSkill: o.old[2],
      NewModel: 'general',
      NewGroup: o.group,
      NewLanguage: o.language,
      NewSkill: o.name,
      changelog: o.commitMessage,
      content: o.code,
      imageChanged: String(o.imageNameChanged),
      old_image_name: o.oldImageUrl.replace('images/', ''),
      new_image_name: o.imageUrl.replace('images/', ''),
      image_name_changed: String(o.imageNameChanged),
      access_token: token,
      ...(o.imageNameChanged ? { image: 'undefined' } : {}),
      ...(o.bot ? { private: '1' } : {}),
    });

  const png = await makeImage('png', 300, 200);
  let skillId: number;

  t.test('susi_skill_cms src/components/SkillCreator/SkillCreator.js: create with an image', async (t) => {
    const res = await create(author.token, {
      group: 'Science',
      name: 'Solar System',
      imageUrl: 'images/solar.png',
      file: png,
      code: code(author.email, 'planets|solar system\nThere are eight planets.'),
    });
    t.equal(res.status, 200);
    t.match(res.body, {
      accepted: true,
      message: String,
      session: { identity: { name: author.email, anonymous: false } },
    });
    t.equal(
      await readFile(join(lang, 'Solar_System.txt'), 'utf8'),
      code(author.email, 'planets|solar system\nThere are eight planets.'),
    );
    const meta = await sharp(await readFile(join(lang, 'images/solar.png'))).metadata();
    t.same([meta.format, meta.width, meta.height], ['jpeg', 512, 512], 'a 512 x 512 JPEG under the given name');
    t.equal(git(repo, 'log', '-1', '--format=%ae %s').trim(), `${author.email} Created Solar_System`);
    t.equal(git(repo, 'status', '--porcelain'), '');
    const [row] = await app.sql<
      { id: number; author_email: string }[]
    >`select id, author_email from skills where name = 'Solar_System'`;
    t.equal(row?.author_email, author.email);
    skillId = row!.id;

    const again = await create(other.token, {
      group: 'Science',
      name: 'solar system',
      imageUrl: 'images/x.png',
      file: png,
      code: 'x',
    });
    t.same(
      [again.status, again.body.accepted, again.body.message],
      [200, false, "The 'models/general/Science/en/Solar_System.txt' already exists."],
      'a name taken (ignoring case)',
    );

    const before = await readFile(join(lang, 'images/solar.png'));
    const second = await create(author.token, {
      group: 'Science',
      name: 'Planets',
      imageUrl: 'images/solar.png',
      file: await makeImage('jpeg', 40, 40),
      code: 'planet|planets\nMercury',
    });
    t.equal(second.body.accepted, true, 'an image of the same name is replaced, as the reference does');
    t.not(Buffer.compare(before, await readFile(join(lang, 'images/solar.png'))), 0, 'the picture is the new one');
    await app.sql`update skills set editable = true where name = 'Planets'`;
  });

  t.test('createSkill refusals', async (t) => {
    // SkillCreator.js with the name field left empty: `skill` is sent, empty.
    const noSkill = await postForm(
      '/cms/createSkill.json',
      {
        model: 'general',
        group: 'Science',
        language: 'en',
        skill: '',
        image_name: 'a.png',
        access_token: author.token,
      },
      [['image', 'a.png', png]],
    );
    t.same([noSkill.status, noSkill.body.accepted, noSkill.body.message], [200, false, 'Skill name is not given']);
    const noImage = await postForm('/cms/createSkill.json', {
      group: 'Science',
      skill: 'Nothing',
      image_name: 'a.png',
      access_token: author.token,
    });
    t.same([noImage.status, noImage.body.accepted, noImage.body.message], [200, false, 'Image not given']);
    const noName = await postForm(
      '/cms/createSkill.json',
      { group: 'Science', skill: 'Nothing', access_token: author.token },
      [['image', 'a.png', png]],
    );
    t.same(
      [noName.status, noName.body.accepted, noName.body.message],
      [200, false, 'The Image name are not given or Image with same name is already present '],
    );
    const anonymous = await postForm(
      '/cms/createSkill.json',
      { group: 'Science', skill: 'Nothing', image_name: 'a.png' },
      [['image', 'a.png', png]],
    );
    t.equal(anonymous.status, 401);
    const headBefore = head();
    for (const [field, bad] of [
      ['skill', '../escape'],
      ['group', '..'],
      ['language', 'en/../../x'],
      ['model', '../models'],
      ['image_name', '../../../x.png'],
      ['image', '../../etc/passwd'],
    ] as const) {
      const fields: Record<string, string> = {
        model: 'general',
        group: 'Science',
        language: 'en',
        skill: 'Fine',
        image_name: 'fine.png',
        content: 'x',
        access_token: author.token,
        [field]: bad,
      };
      const res = await postForm(
        '/cms/createSkill.json',
        fields,
        field === 'image' ? [] : [['image', 'fine.png', png]],
      );
      t.equal(res.status, 400, `${field}=${bad}`);
      t.equal(res.body.accepted, false);
    }
    t.equal(head(), headBefore, 'nothing committed');

    const racing = await Promise.all(
      [author, other, author, other].map((u, i) =>
        create(u.token, {
          group: 'Science',
          name: 'Race',
          imageUrl: `images/race${i}.png`,
          file: png,
          code: `racer ${i}`,
        }),
      ),
    );
    t.equal(
      racing.filter((r) => r.body.accepted === true).length,
      1,
      'concurrent creates of one name: exactly one is taken',
    );
    t.same(
      racing.filter((r) => r.body.accepted !== true).map((r) => r.body.message),
      Array(3).fill("The 'models/general/Science/en/Race.txt' already exists."),
    );
  });

  t.test('susi_skill_cms SkillCreator.js: save an edit, rename, move, change the image', async (t) => {
    const saved = await edit(author.token, {
      old: ['Science', 'en', 'Solar_System'],
      group: 'Science',
      language: 'en',
      name: 'Solar_System',
      commitMessage: 'Pluto is no planet',
      code: code(author.email, 'planets|solar system\nThere are eight planets, Pluto is a dwarf.'),
      oldImageUrl: 'images/solar.png',
      imageUrl: 'images/solar.png',
      imageNameChanged: false,
    });
    t.equal(saved.status, 200);
    t.match(saved.body, { accepted: true, message: 'Skill updated' });
    t.match(await readFile(join(lang, 'Solar_System.txt'), 'utf8'), /Pluto is a dwarf/);
    t.equal(git(repo, 'log', '-1', '--format=%ae %s').trim(), `${author.email} Pluto is no planet`);

    const renamed = await edit(other.token, {
      old: ['Science', 'en', 'Solar_System'],
      group: 'Science',
      language: 'en',
      name: 'Solar System Facts',
      commitMessage: 'Better name',
      code: code(author.email, 'planets|solar system\nEight planets.'),
      oldImageUrl: 'images/solar.png',
      imageUrl: 'images/solar.png',
      imageNameChanged: false,
    });
    t.match(
      renamed.body,
      { accepted: true, message: 'Skill updated' },
      'any user may change a public skill (as the reference)',
    );
    t.notOk(await exists(join(lang, 'Solar_System.txt')), 'the old name is gone');
    t.equal(
      await readFile(join(lang, 'Solar_System_Facts.txt'), 'utf8'),
      code(author.email, 'planets|solar system\nEight planets.'),
      'blanks of NewSkill become _ as in the path the editor opens',
    );
    const follow = git(repo, 'log', '--follow', '--format=%s', '--', 'models/general/Science/en/Solar_System_Facts.txt')
      .trim()
      .split('\n');
    t.same(
      follow,
      ['Better name', 'Pluto is no planet', 'Created Solar_System'],
      'one commit, and the history follows the rename',
    );
    const [row] = await app.sql<{ id: number }[]>`select id from skills where name = 'Solar_System_Facts'`;
    t.equal(row?.id, skillId, 'the same row (ratings, usage) follows the skill');

    const moved = await edit(author.token, {
      old: ['Science', 'en', 'Solar_System_Facts'],
      group: 'Astronomy',
      language: 'en',
      name: 'Solar_System_Facts',
      commitMessage: 'Astronomy it is',
      code: code(author.email, 'planets|solar system\nEight planets.'),
      oldImageUrl: 'images/solar.png',
      imageUrl: 'images/solar.png',
      imageNameChanged: false,
    });
    t.match(moved.body, { accepted: true, message: 'Skill updated' });
    const astro = join(repo, 'models/general/Astronomy/en');
    t.ok(await exists(join(astro, 'Solar_System_Facts.txt')), 'moved to the new group');
    t.ok(await exists(join(astro, 'images/solar.png')), 'the image follows it');
    t.notOk(await exists(join(lang, 'Solar_System_Facts.txt')));
    t.same(
      (await app.sql<{ group_name: string }[]>`select group_name from skills where id = ${skillId}`).map(
        (r) => r.group_name,
      ),
      ['Astronomy'],
    );
    const groups = await ajaxGet('/cms/getGroups.json', { model: 'general' });
    t.ok(groups.body.groups.includes('Astronomy'));

    const bytes = await readFile(join(astro, 'images/solar.png'));
    const newPicture = await edit(author.token, {
      old: ['Astronomy', 'en', 'Solar_System_Facts'],
      group: 'Astronomy',
      language: 'en',
      name: 'Solar_System_Facts',
      commitMessage: 'New picture name',
      code: code(author.email, 'planets|solar system\nEight planets.', 'images/sun.png'),
      oldImageUrl: 'images/solar.png',
      imageUrl: 'images/sun.png',
      imageNameChanged: true,
    });
    t.match(
      newPicture.body,
      { accepted: true, message: 'Skill updated' },
      'the form carries `image=undefined` (the editor loses the file): the picture is renamed',
    );
    t.notOk(await exists(join(astro, 'images/solar.png')));
    t.same(await readFile(join(astro, 'images/sun.png')), bytes);
    t.equal(git(repo, 'status', '--porcelain'), '', 'all in the commit');
    t.equal(git(repo, 'log', '-1', '--format=%s').trim(), 'New picture name');
  });

  t.test('modifySkill refusals and protection', async (t) => {
    const base = {
      old: ['Astronomy', 'en', 'Solar_System_Facts'] as [string, string, string],
      group: 'Astronomy',
      language: 'en',
      name: 'Solar_System_Facts',
      commitMessage: 'x',
      code: 'x',
      oldImageUrl: 'images/sun.png',
      imageUrl: 'images/sun.png',
      imageNameChanged: false,
    };
    const missing = await edit(author.token, { ...base, old: ['Astronomy', 'en', 'No_Such_Skill'] });
    t.same([missing.status, missing.body.accepted, missing.body.message], [200, false, "Skill doesn't exists"]);
    const taken = await edit(author.token, { ...base, group: 'Science', name: 'Planets' });
    t.same(
      [taken.status, taken.body.accepted, taken.body.message],
      [200, false, "The 'models/general/Science/en/Planets.txt' already exists."],
    );
    const anonymous = await edit('', base);
    t.equal(anonymous.status, 401);

    const headBefore = head();
    const fields = [
      'OldModel',
      'OldGroup',
      'OldLanguage',
      'OldSkill',
      'NewModel',
      'NewGroup',
      'NewLanguage',
      'NewSkill',
      'old_image_name',
      'new_image_name',
    ];
    for (const field of fields) {
      for (const bad of ['..', '../../x', 'a/b', 'images/../../x']) {
        const res = await postForm('/cms/modifySkill.json', {
          OldModel: 'general',
          OldGroup: 'Astronomy',
          OldLanguage: 'en',
          OldSkill: 'Solar_System_Facts',
          NewModel: 'general',
          NewGroup: 'Astronomy',
          NewLanguage: 'en',
          NewSkill: 'Solar_System_Facts',
          changelog: 'evil',
          content: 'evil',
          old_image_name: 'sun.png',
          new_image_name: 'sun.png',
          imageChanged: 'false',
          image_name_changed: 'true',
          access_token: author.token,
          [field]: bad,
        });
        t.equal(res.status, 400, `${field}=${bad}`);
      }
    }
    t.equal(head(), headBefore, 'nothing committed');

    await app.sql`update skills set editable = false where id = ${skillId}`;
    const locked = await edit(other.token, { ...base, code: 'vandalism' });
    t.same([locked.status, locked.body.accepted], [403, false], 'a skill marked not editable: users are refused');
    const legacy = await ajaxGet(
      '/cms/modifySkill.json',
      {
        model: 'general',
        group: 'Astronomy',
        language: 'en',
        skill: 'Solar_System_Facts',
        content: 'vandalism',
        changelog: 'x',
      },
      other.token,
    );
    t.equal(legacy.status, 403, 'also through the 2017 form');
    const byAdmin = await edit(admin.token, {
      ...base,
      code: code(author.email, 'planets|solar system\nEight.', 'images/sun.png'),
      commitMessage: 'Admin fix',
    });
    t.match(byAdmin.body, { accepted: true, message: 'Skill updated' }, 'administrators may');
    t.equal(head() !== headBefore, true);
  });

  t.test(
    'susi.ai src/components/cms/SkillCreator/SkillWizard.js: a skill without a picture, then a new picture',
    async (t) => {
      // SkillWizard.js lines 833-847: no file chosen.
      const res = await postForm('/cms/createSkill.json', {
        model: 'general',
        group: 'Science',
        language: 'de',
        skill: 'Wetter_für_Köln',
        image: 'images/default.png',
        image_name: 'default.png',
        content:
          '::protected No\n::author_email x\n::name Wetter für Köln\n::image images/default.png\nwetter|regen\nEs regnet.',
        access_token: author.token,
      });
      t.equal(res.status, 200);
      t.equal(res.body.accepted, true, JSON.stringify(res.body));
      const de = join(repo, 'models/general/Science/de');
      t.match(await readFile(join(de, 'Wetter_für_Köln.txt'), 'utf8'), /::image images\/default.png/);
      t.notOk(await exists(join(de, 'images/default.png')), 'no picture stored: the read side serves the default one');

      // SkillWizard.js lines 891-912: a new file under a new name.
      const modified = await postForm(
        '/cms/modifySkill.json',
        {
          OldModel: 'general',
          OldGroup: 'Science',
          OldLanguage: 'de',
          OldSkill: 'Wetter_für_Köln',
          NewModel: 'general',
          NewGroup: 'Science',
          NewLanguage: 'de',
          NewSkill: 'Wetter_für_Köln',
          changelog: 'Bild',
          content: '::image images/köln.png\nwetter|regen\nEs regnet.',
          imageChanged: 'true',
          old_image_name: 'default.png',
          new_image_name: 'köln.png',
          image_name_changed: 'true',
          access_token: author.token,
        },
        [['image', 'köln.png', await makeImage('webp', 100, 80)]],
      );
      t.match(modified.body, { accepted: true, message: 'Skill updated' });
      const meta = await sharp(await readFile(join(de, 'images/köln.png'))).metadata();
      t.same([meta.format, meta.width, meta.height], ['jpeg', 512, 512]);
      t.equal(git(repo, 'status', '--porcelain'), '');
    },
  );

  t.test('susi_skill_cms src/components/BotBuilder: a private bot (private=1)', async (t) => {
    const res = await create(author.token, {
      group: 'Knowledge',
      name: 'My Bot',
      imageUrl: 'images/bot.png',
      file: png,
      code: '::protected Yes\n::name My Bot\nhi|hello\nHello!',
      bot: true,
    });
    t.equal(res.body.accepted, true, JSON.stringify(res.body));
    const folder = join(repo, 'private', author.id, 'Knowledge/en');
    t.ok(await exists(join(folder, 'My_Bot.txt')), "stored in the caller's private folder");
    t.ok(await exists(join(folder, 'images/bot.png')));
    t.notOk(await exists(join(repo, 'models/general/Knowledge/en/My_Bot.txt')));
    t.same(await app.sql`select id from skills where name = 'My_Bot'`, [], 'no public row');
    const metrics = await ajaxGet('/cms/getSkillMetricsData.json', { language: 'en', model: 'general', group: 'All' });
    t.equal(metrics.status, 200);
    t.notOk(JSON.stringify(metrics.body).includes('My_Bot'), 'not in the public lists');

    const update = await edit(author.token, {
      old: ['Knowledge', 'en', 'My_Bot'],
      group: 'Knowledge',
      language: 'en',
      name: 'My_Bot',
      commitMessage: 'Friendlier',
      code: '::protected Yes\nhi|hello\nHello there!',
      oldImageUrl: 'images/bot.png',
      imageUrl: 'images/bot.png',
      imageNameChanged: false,
      bot: true,
    });
    t.match(update.body, { accepted: true, message: 'Skill updated' });
    t.equal(await readFile(join(folder, 'My_Bot.txt'), 'utf8'), '::protected Yes\nhi|hello\nHello there!');
    const stranger = await edit(other.token, {
      old: ['Knowledge', 'en', 'My_Bot'],
      group: 'Knowledge',
      language: 'en',
      name: 'My_Bot',
      commitMessage: 'Mine',
      code: 'stolen',
      oldImageUrl: 'images/bot.png',
      imageUrl: 'images/bot.png',
      imageNameChanged: false,
      bot: true,
    });
    t.same(
      [stranger.body.accepted, stranger.body.message],
      [false, "Skill doesn't exists"],
      'another user reaches only their own bots',
    );
    t.same(await app.sql`select id from skills where name = 'My_Bot'`, [], 'still no public row');

    // api/index.js deleteBot: GET deleteSkill.json with private=1, the token from the cookie.
    const deleted = await ajaxGet(
      '/cms/deleteSkill.json',
      { private: 1, group: 'Knowledge', language: 'en', skill: 'My_Bot' },
      author.token,
    );
    t.same([deleted.status, deleted.body.accepted, deleted.body.message], [200, true, 'Deleted My_Bot']);
    t.notOk(await exists(join(folder, 'My_Bot.txt')));
    t.ok(await exists(join(repo, 'deleted/private', author.id, 'Knowledge/en/My_Bot.txt')));
    const again = await ajaxGet(
      '/cms/deleteSkill.json',
      { private: 1, group: 'Knowledge', language: 'en', skill: 'My_Bot' },
      author.token,
    );
    t.equal(again.status, 422);
  });
});
