/**
 * The history pages of susi_skill_cms: src/components/SkillHistory/SkillHistory.js (getSkillHistory,
 * then two versions by getFileAtCommitID), src/components/SkillRollBack/SkillRollBack.js (both versions,
 * then modifySkill with the old text), and the deletion calls of src/api/index.js (deleteSkill,
 * undoDeleteSkill, skillsToBeDeleted).
 */
import { execFileSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { makeImage } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';
import { editorApp, git } from '../helpers/skill-editor.js';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

t.test('skill history', async (t) => {
  const { app, repo, postForm, ajaxGet, head } = await editorApp(t);
  const author = await seedUser(app);
  const other = await seedUser(app);
  const admin = await seedUser(app, { admin: true });
  const png = await makeImage('png', 64, 64);
  const text = (n: number) =>
    `::protected No\n::author_email ${author.email}\n::name Quotes\n::image images/quotes.png\nquote|quotes\nQuote number ${n}.`;

  const created = await postForm(
    '/cms/createSkill.json',
    {
      model: 'general',
      group: 'Fun',
      language: 'en',
      skill: 'Quotes',
      content: text(1),
      image_name: 'quotes.png',
      access_token: author.token,
    },
    [['image', 'quotes.png', png]],
  );
  t.equal(created.body.accepted, true, JSON.stringify(created.body));
  const modify = (
    token: string,
    oldSkill: string,
    newSkill: string,
    content: string,
    changelog: string,
    extra: Record<string, string> = {},
  ) =>
    postForm('/cms/modifySkill.json', {
      OldModel: 'general',
      OldGroup: 'Fun',
      OldLanguage: 'en',
      OldSkill: oldSkill,
      NewModel: 'general',
      NewGroup: 'Fun',
      NewLanguage: 'en',
      NewSkill: newSkill,
      changelog,
      content,
      imageChanged: 'false',
      old_image_name: 'quotes.png',
      new_image_name: 'quotes.png',
      image_name_changed: 'false',
      access_token: token,
      ...extra,
    });
  t.equal((await modify(author.token, 'Quotes', 'Quotes', text(2), 'Second quote')).body.accepted, true);
  t.equal((await modify(other.token, 'Quotes', 'Famous_Quotes', text(3), 'Renamed')).body.accepted, true);
  const skill = { model: 'general', group: 'Fun', language: 'en', skill: 'Famous_Quotes' };

  t.test(
    'susi_skill_cms src/components/SkillHistory/SkillHistory.js: fetchCommitHistory and two versions',
    async (t) => {
      // api/index.js fetchCommitHistory: ajax.get(url, {...payload}); the cookie token comes first when logged in.
      const history = await ajaxGet('/cms/getSkillHistory.json', skill, author.token);
      t.equal(history.status, 200);
      t.equal(history.body.accepted, true);
      const commits = history.body.commits as Record<string, string>[];
      t.same(
        commits.map((c) => c.commit_message),
        ['Renamed', 'Second quote', 'Created Quotes'],
        'newest first, across the rename',
      );
      t.same(
        commits.map((c) => c.author_mail),
        [other.email, author.email, author.email],
      );
      for (const c of commits) {
        t.match(c, {
          commitID: /^[0-9a-f]{40}$/,
          commitName: c.commitID,
          author: String,
          commitRev: new RegExp(`^commit ${c.commitID} `),
        });
        t.match(
          c.commitDate,
          /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}$/,
          'a java.util.Date as the reference writes it',
        );
      }
      t.equal(history.headers['cache-control'], 'no-cache, no-store, must-revalidate');

      // SkillHistory.js compares two commits: fetchSkillByCommitId({skill, model, group, language, commitID}).
      const newest = await ajaxGet('/cms/getFileAtCommitID.json', { ...skill, commitID: commits[0]!.commitID! });
      t.same([newest.status, newest.body.accepted, newest.body.file], [200, true, text(3)]);
      t.match(newest.body, {
        commitID: commits[0]!.commitID,
        commit_message: 'Renamed',
        author_mail: other.email,
        commitDate: commits[0]!.commitDate,
      });
      const oldest = await ajaxGet('/cms/getFileAtCommitID.json', {
        ...skill,
        commitID: commits[2]!.commitID!.slice(0, 8),
      });
      t.same(
        [oldest.status, oldest.body.file, oldest.body.commitID],
        [200, text(1), commits[2]!.commitID],
        'an abbreviated id; the file under the name it had then',
      );

      const none = await ajaxGet('/cms/getSkillHistory.json', { ...skill, skill: 'Nothing_Here' });
      t.same(
        [none.status, none.body.accepted, none.body.commits],
        [200, false, []],
        'no commits: accepted false, as the reference',
      );
    },
  );

  t.test('getFileAtCommitID and getSkillHistory bad input', async (t) => {
    const missing = await ajaxGet('/cms/getFileAtCommitID.json', skill);
    t.same([missing.status, missing.body.accepted, missing.body.message], [400, false, 'Commit ID is Null']);
    for (const bad of [
      '--output=/tmp/x',
      'HEAD',
      'HEAD~1',
      'abc',
      'g'.repeat(40),
      '1234567890abcdef1234567890abcdef12345678ff',
      '@{-1}',
      'a..b',
      '-p',
      '$(id)',
    ]) {
      const res = await ajaxGet('/cms/getFileAtCommitID.json', { ...skill, commitID: encodeURIComponent(bad) });
      t.equal(res.status, 400, `commitID=${bad}`);
      t.equal(res.body.accepted, false);
    }
    const unknown = await ajaxGet('/cms/getFileAtCommitID.json', { ...skill, commitID: 'deadbeef'.repeat(5) });
    t.same([unknown.status, unknown.body.accepted], [404, false], 'a well-formed id of no commit');
    const [first] = git(repo, 'rev-list', '--max-parents=0', 'HEAD').trim().split('\n');
    const notThere = await ajaxGet('/cms/getFileAtCommitID.json', { ...skill, commitID: first! });
    t.same(
      [notThere.status, notThere.body.message],
      [404, 'This commit did not change the skill'],
      'a commit before the skill existed (and any other commit not of the skill)',
    );
    for (const [field, bad] of [
      ['skill', '../../etc/passwd'],
      ['group', '..'],
      ['language', 'a/b'],
      ['model', '.git'],
    ]) {
      t.equal(
        (
          await ajaxGet('/cms/getFileAtCommitID.json', {
            ...skill,
            commitID: first!,
            [field]: encodeURIComponent(bad!),
          })
        ).status,
        400,
        `${field}=${bad}`,
      );
      t.equal(
        (await ajaxGet('/cms/getSkillHistory.json', { ...skill, [field]: encodeURIComponent(bad!) })).status,
        400,
        `history ${field}=${bad}`,
      );
    }
  });

  t.test('susi_skill_cms src/components/SkillRollBack/SkillRollBack.js: roll back to an older version', async (t) => {
    const commits = (await ajaxGet('/cms/getSkillHistory.json', skill)).body.commits as Record<string, string>[];
    const latestCommit = commits[0]!.commitID!;
    const revertingCommit = commits[2]!.commitID!;
    // componentDidMount: the URL built by hand, `...&skill=<name>&commitID=<id>`.
    const latest = await app.inject({
      method: 'GET',
      url: `/cms/getFileAtCommitID.json?model=general&group=Fun&language=en&skill=Famous_Quotes&commitID=${latestCommit}`,
    });
    const reverting = await app.inject({
      method: 'GET',
      url: `/cms/getFileAtCommitID.json?model=general&group=Fun&language=en&skill=Famous_Quotes&commitID=${revertingCommit}`,
    });
    const code = reverting.json().file as string;
    const imageOf = (file: string) => /^::image\s(.*)$/m.exec(file)![1]!.replace('images/', '');
    // handleRollBack: the old text, image_name_changed true, imageChanged false.
    const res = await postForm('/cms/modifySkill.json', {
      OldModel: 'general',
      OldGroup: 'Fun',
      OldLanguage: 'en',
      OldSkill: 'Famous_Quotes',
      NewModel: 'general',
      NewGroup: 'Fun',
      NewLanguage: 'en',
      NewSkill: 'Famous_Quotes',
      content: code,
      changelog: `Reverting to Commit - ${revertingCommit}`,
      imageChanged: 'false',
      image_name_changed: 'true',
      old_image_name: imageOf(latest.json().file),
      new_image_name: imageOf(code),
      access_token: author.token,
    });
    t.match(res.body, { accepted: true, message: 'Skill updated' });
    t.equal(
      await readFile(join(repo, 'models/general/Fun/en/Famous_Quotes.txt'), 'utf8'),
      text(1),
      'the old text is back',
    );
    t.ok(await exists(join(repo, 'models/general/Fun/en/images/quotes.png')), 'the image is where it was');
    const after = (await ajaxGet('/cms/getSkillHistory.json', skill)).body.commits as Record<string, string>[];
    t.equal(after[0]!.commit_message, `Reverting to Commit - ${revertingCommit}`);
    t.equal(after.length, 4);
  });

  t.test('susi_skill_cms src/api/index.js: deleteSkill, skillsToBeDeleted, undoDeleteSkill', async (t) => {
    const refused = await ajaxGet('/cms/deleteSkill.json', skill, other.token);
    t.same(
      [refused.status, refused.body.accepted, refused.body.message],
      [403, false, 'Must be admin to delete a skill'],
      'not the author, not an administrator',
    );
    t.equal((await ajaxGet('/cms/deleteSkill.json', skill)).status, 401, 'anonymous');
    const [row] = await app.sql<{ id: number }[]>`select id from skills where name = 'Famous_Quotes'`;
    t.ok(row, 'the skill has a row');

    const headBefore = head();
    const deleted = await ajaxGet('/cms/deleteSkill.json', skill, admin.token);
    t.same([deleted.status, deleted.body.accepted, deleted.body.message], [200, true, 'Deleted Famous_Quotes']);
    t.notOk(await exists(join(repo, 'models/general/Fun/en/Famous_Quotes.txt')));
    t.equal(await readFile(join(repo, 'deleted/models/general/Fun/en/Famous_Quotes.txt'), 'utf8'), text(1));
    t.equal(git(repo, 'log', '-1', '--format=%ae %s').trim(), `${admin.email} Deleted Famous_Quotes`);
    t.not(head(), headBefore);
    t.equal(git(repo, 'status', '--porcelain'), '');
    t.same(await app.sql`select id from skills where name = 'Famous_Quotes'`, [], 'gone from the lists');
    const gone = await ajaxGet('/cms/getSkill.json', skill);
    t.same([gone.status, gone.body.accepted], [200, false], 'a missing skill, as the reference answers it');
    t.equal((await ajaxGet('/cms/getSkillHistory.json', skill)).body.accepted, true, 'the history is still there');

    // skillsToBeDeleted(): ajax.get(url, {}) with the cookie token.
    const list = await ajaxGet('/cms/skillsToBeDeleted.json', {}, admin.token);
    t.equal(list.status, 200);
    t.match(list.body, { accepted: true, message: 'Success: Fetched skill list' });
    t.equal(list.body.skills.length, 1);
    t.match(list.body.skills[0], {
      group: 'Fun',
      language: 'en',
      skill_tag: 'Famous_Quotes',
      testgroup: 'Fun',
      testlanguage: 'en',
      testskill: 'Famous_Quotes',
      skill_name: 'Quotes',
      author_email: author.email,
    });
    const days =
      (Date.parse(list.body.skills[0].purge_after) - Date.parse(list.body.skills[0].deleted_at)) / 86_400_000;
    t.equal(days, 30, 'kept 30 days');
    t.equal((await ajaxGet('/cms/skillsToBeDeleted.json', {}, author.token)).status, 401, 'administrators only');
    t.equal((await ajaxGet('/cms/skillsToBeDeleted.json', { model: '..' }, admin.token)).status, 400);

    const notYours = await ajaxGet('/cms/undoDeleteSkill.json', skill, other.token);
    t.same([notYours.status, notYours.body.accepted], [403, false]);
    const undone = await ajaxGet('/cms/undoDeleteSkill.json', skill, author.token);
    t.same(
      [undone.status, undone.body.accepted, undone.body.message],
      [200, true, 'Restored Famous_Quotes successfully!'],
      'the author (::author_email) restores it',
    );
    t.equal(await readFile(join(repo, 'models/general/Fun/en/Famous_Quotes.txt'), 'utf8'), text(1));
    t.notOk(await exists(join(repo, 'deleted/models/general/Fun/en/Famous_Quotes.txt')));
    t.equal(git(repo, 'log', '-1', '--format=%s').trim(), 'Undo Delete Famous_Quotes');
    const [back] = await app.sql<
      { author_email: string }[]
    >`select author_email from skills where name = 'Famous_Quotes'`;
    t.equal(back?.author_email, author.email, 'listed again, its author from the file');
    t.equal((await ajaxGet('/cms/getSkill.json', skill)).status, 200);
    const twice = await ajaxGet('/cms/undoDeleteSkill.json', skill, admin.token);
    t.equal(twice.status, 422, 'nothing to restore');
    t.same((await ajaxGet('/cms/skillsToBeDeleted.json', {}, admin.token)).body.skills, []);

    const byAuthor = await ajaxGet('/cms/deleteSkill.json', skill, author.token);
    t.equal(
      byAuthor.body.accepted,
      true,
      'the author may delete their own skill (the reference compares author_email)',
    );
    t.equal(
      (await modify(author.token, 'Famous_Quotes', 'Famous_Quotes', 'x', 'Recreate?')).body.message,
      "Skill doesn't exists",
    );
    await postForm('/cms/createSkill.json', {
      group: 'Fun',
      skill: 'Famous_Quotes',
      content: 'a new one',
      image: 'images/default.png',
      image_name: 'default.png',
      access_token: other.token,
    });
    const clash = await ajaxGet('/cms/undoDeleteSkill.json', skill, admin.token);
    t.same([clash.status, clash.body.accepted], [409, false], 'a new skill took the name meanwhile');

    for (const url of ['/cms/deleteSkill.json', '/cms/undoDeleteSkill.json']) {
      t.equal((await ajaxGet(url, { ...skill, skill: '' }, admin.token)).status, 400, `${url}: no skill`);
      for (const [field, bad] of [
        ['skill', '../../../x'],
        ['group', '..'],
        ['language', 'en/..'],
        ['model', '../deleted'],
      ]) {
        t.equal(
          (await ajaxGet(url, { ...skill, [field]: encodeURIComponent(bad!) }, admin.token)).status,
          400,
          `${url} ${field}=${bad}`,
        );
      }
    }
    t.equal((await ajaxGet('/cms/deleteSkill.json', { ...skill, skill: 'Nope' }, admin.token)).status, 422);
  });

  t.test('skills deleted more than 30 days ago are purged by the next deletion', async (t) => {
    // A deletion of long ago, committed as the service would have then.
    const old = 'deleted/models/general/Fun/en/Ancient.txt';
    execFileSync('mkdir', ['-p', join(repo, 'deleted/models/general/Fun/en')]);
    await writeFile(join(repo, old), '::name Ancient\nold|ancient\nOld.');
    git(repo, 'add', '--', old);
    git(
      repo,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--date=2020-01-01T00:00:00Z',
      '-m',
      'Deleted Ancient',
    );
    const listed = await ajaxGet('/cms/skillsToBeDeleted.json', {}, admin.token);
    t.ok(listed.body.skills.some((s: { testskill: string }) => s.testskill === 'Ancient'));
    await postForm('/cms/createSkill.json', {
      group: 'Fun',
      skill: 'Fresh',
      content: 'fresh|new\nNew.',
      image: 'images/default.png',
      image_name: 'default.png',
      access_token: author.token,
    });
    t.equal((await ajaxGet('/cms/deleteSkill.json', { ...skill, skill: 'Fresh' }, author.token)).body.accepted, true);
    t.notOk(await exists(join(repo, old)), 'the old deletion is purged');
    t.ok(await exists(join(repo, 'deleted/models/general/Fun/en/Fresh.txt')), 'the new one waits');
    t.match(
      git(repo, 'log', '-2', '--format=%s'),
      /^Purged 1 skill\(s\) deleted more than 30 days ago\nDeleted Fresh\n$/,
    );
    t.equal(git(repo, 'status', '--porcelain'), '');
  });
});
