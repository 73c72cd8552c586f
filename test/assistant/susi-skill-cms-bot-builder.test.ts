/**
 * The bot builder of susi_skill_cms: src/components/BotBuilder/BotBuilderPages/DesignViews/UIView.js
 * (uploadImageIcon: POST uploadImage.json), src/components/BotBuilder/BotWizard.js (storeDraft with
 * `object`) and src/components/BotBuilder/BotBuilder.js (readDraft, deleteDraft).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { makeImage } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';
import { editorApp, git } from '../helpers/skill-editor.js';

t.test('bot builder', async (t) => {
  const { app, repo, postForm, ajaxGet, head } = await editorApp(t);
  const user = await seedUser(app);
  const other = await seedUser(app);

  t.test(
    'susi_skill_cms src/components/BotBuilder/BotBuilderPages/DesignViews/UIView.js: uploadImageIcon',
    async (t) => {
      const png = await makeImage('png', 120, 90);
      // form: access_token, image_name (file.name), image (the file).
      const res = await postForm('/cms/uploadImage.json', { access_token: user.token, image_name: 'avatar.png' }, [
        ['image', 'avatar.png', png],
      ]);
      t.equal(res.status, 200);
      t.equal(res.body.accepted, true, JSON.stringify(res.body));
      t.match(res.body.image_path, /^[0-9a-f-]{36}\/avatar\.png$/, '<uuid>/<name>: a folder no one can guess');
      const stored = join(repo, 'uploads', res.body.image_path);
      const meta = await sharp(await readFile(stored)).metadata();
      t.same(
        [meta.format, meta.width, meta.height],
        ['jpeg', 120, 90],
        'a JPEG of the same size, in the repository under uploads/',
      );
      t.equal(git(repo, 'log', '-1', '--format=%ae').trim(), user.email);
      t.equal(git(repo, 'status', '--porcelain'), '');

      const noImage = await postForm('/cms/uploadImage.json', { access_token: user.token, image_name: 'avatar.png' });
      t.same([noImage.status, noImage.body.accepted, noImage.body.message], [200, false, 'Image not given']);
      const noName = await postForm('/cms/uploadImage.json', { access_token: user.token }, [['image', 'a.png', png]]);
      t.same([noName.status, noName.body.accepted, noName.body.message], [200, false, 'The Image name is not given']);
      const anonymous = await postForm('/cms/uploadImage.json', { image_name: 'a.png' }, [['image', 'a.png', png]]);
      t.equal(anonymous.status, 401);
      const before = head();
      for (const bad of ['../../x.png', '..', 'a/b.png', '.git']) {
        const res = await postForm('/cms/uploadImage.json', { access_token: user.token, image_name: bad }, [
          ['image', 'a.png', png],
        ]);
        t.equal(res.status, 400, `image_name=${bad}`);
      }
      const notImage = await postForm('/cms/uploadImage.json', { access_token: user.token, image_name: 'a.png' }, [
        ['image', 'a.png', Buffer.from('not an image')],
      ]);
      t.same([notImage.status, notImage.body.accepted], [422, false]);
      t.equal(head(), before, 'no commit');
    },
  );

  t.test('susi_skill_cms src/components/BotBuilder/BotWizard.js and BotBuilder.js: drafts', async (t) => {
    // BotWizard.js saveDraft: designCode without '#', the image under images/.
    const skillData = {
      category: 'Knowledge',
      language: 'en',
      name: 'Helpdesk Bot',
      buildCode: '::name Helpdesk Bot\nhi|hello\nHow can I help?',
      designCode: '::bodyBackground ffffff\n::botIconColor 000000',
      configCode: '::allow_bot_only_on_own_sites No',
      image: 'images/<image_name>',
    };
    const stored = await ajaxGet('/cms/storeDraft.json', { object: JSON.stringify(skillData) }, user.token);
    t.equal(stored.status, 200);
    t.match(stored.body, { accepted: true, message: 'draft stored', id: /^[0-9a-f]+$/ });
    const id = stored.body.id as string;
    const second = await ajaxGet(
      '/cms/storeDraft.json',
      { object: JSON.stringify({ ...skillData, name: 'Ünïcode Bot' }) },
      user.token,
    );
    t.not(second.body.id, id, 'a new draft gets a new id');
    const replaced = await ajaxGet(
      '/cms/storeDraft.json',
      { object: JSON.stringify({ ...skillData, name: 'Helpdesk Bot 2' }), id },
      user.token,
    );
    t.equal(replaced.body.id, id, 'an id replaces that draft');

    // BotBuilder.js getDrafts: readDraft() with no payload.
    const all = await ajaxGet('/cms/readDraft.json', {}, user.token);
    t.equal(all.status, 200);
    t.same(all.body.drafts, {
      [id]: { ...skillData, name: 'Helpdesk Bot 2' },
      [second.body.id]: { ...skillData, name: 'Ünïcode Bot' },
    });
    const one = await ajaxGet('/cms/readDraft.json', { id }, user.token);
    t.same(Object.keys(one.body.drafts), [id]);
    const theirs = await ajaxGet('/cms/readDraft.json', {}, other.token);
    t.same(theirs.body.drafts, {}, 'another user sees none of them');
    const theirDelete = await ajaxGet('/cms/deleteDraft.json', { id }, other.token);
    t.equal(theirDelete.body.accepted, true);
    t.ok((await ajaxGet('/cms/readDraft.json', { id }, user.token)).body.drafts[id], 'another user cannot delete it');

    // The reference's member-by-member form.
    const members = await ajaxGet('/cms/storeDraft.json', { ...skillData, image: 'images/x.png' }, user.token);
    t.equal(members.body.accepted, true);
    const empty = await ajaxGet('/cms/storeDraft.json', { ...skillData, configCode: '' }, user.token);
    t.same([empty.status, empty.body.message], [422, 'some values of object are empty']);

    // BotBuilder.js deleteDraft({id}).
    const deleted = await ajaxGet('/cms/deleteDraft.json', { id }, user.token);
    t.match(deleted.body, { accepted: true, message: 'draft deleted' });
    t.notOk((await ajaxGet('/cms/readDraft.json', {}, user.token)).body.drafts[id]);

    for (const [url, payload] of [
      ['/cms/storeDraft.json', { object: 'not json' }],
      ['/cms/storeDraft.json', { object: '[1,2]' }],
      ['/cms/storeDraft.json', { object: '"text"' }],
      ['/cms/storeDraft.json', { object: encodeURIComponent('{"a":"\\u0000"}') }],
      ['/cms/storeDraft.json', { object: encodeURIComponent('{"a":"\\ud800"}') }],
      ['/cms/storeDraft.json', { object: '{}', id: '../x' }],
      ['/cms/readDraft.json', { id: '../../x' }],
      ['/cms/deleteDraft.json', {}],
      ['/cms/deleteDraft.json', { id: 'a b' }],
    ] as const) {
      const res = await ajaxGet(url, payload, user.token);
      t.equal(res.status, 400, `${url} ${JSON.stringify(payload)}`);
      t.equal(res.body.accepted, false);
    }
    for (const url of ['/cms/storeDraft.json', '/cms/readDraft.json', '/cms/deleteDraft.json']) {
      t.equal((await ajaxGet(url, { object: '{}', id: 'x' })).status, 401, `${url}: anonymous`);
    }
  });
});
