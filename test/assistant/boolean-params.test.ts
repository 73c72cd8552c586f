/**
 * The boolean parameters of /aaa and /cms read as the reference's Query.get(key, boolean) reads them
 * (susi_server src/ai/susi/server/Query.java): `true` or `1`, trimmed, is true; any other value false.
 * Where the reference refuses a value that is neither true nor false (changeSkillStatus, getSkillList's
 * `reviewed` and `staff_picks`), `1` and `0` are true and false and other values stay a 400. Requests go over
 * real HTTP as the clients build them: GET queries as susi_skill_cms's ajax.get (the cookie token first,
 * unencoded), forms as the editor's FormData.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { makeImage } from '../helpers/images.js';
import { editFields, listeningEditorApp, postFormData } from '../helpers/skill-editor.js';
import { cmsGet } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const { app, repo, origin } = await listeningEditorApp(t);
const user = await seedUser(app);
const admin = await seedUser(app, { admin: true });

type Answer = { status: number; body: any };
/** A GET of a path and query written out by hand (the request as sent). */
const getRaw = async (pathAndQuery: string): Promise<Answer> => {
  const res = await fetch(origin + pathAndQuery);
  return { status: res.status, body: await res.json() };
};
/** susi_skill_cms ajax.get(url, payload) with the `loggedIn` cookie's token. */
const get = (path: string, payload: Record<string, unknown>, token?: string) => getRaw(cmsGet(path, payload, token));
/** The editor's FormData post (the token in the form). */
const post = (path: string, fields: Record<string, string | Blob>): Promise<Answer> =>
  postFormData(origin, path, fields);

t.test('/aaa/storePersonalInfo.json: fetchDetails=1 reads the store', async (t) => {
  const store = `/aaa/storePersonalInfo.json?access_token=${user.token}`;
  const empty = await getRaw(`${store}&fetchDetails=1`);
  t.same(
    [empty.status, empty.body.accepted, empty.body.message],
    [420, false, 'No personal information is added yet.'],
    'a read of an empty store (was the write refusal 422 "Bad store name encountered!")',
  );
  const written = await getRaw(`${store}&storeName=github&value=octocat`);
  t.same([written.status, written.body.message], [200, 'You successfully updated your account information!']);

  // The request, the reference's other spelling of true, and both with blanks around them.
  for (const value of ['1', 'true', '%201%20', '%09true%20']) {
    const read = await getRaw(`${store}&fetchDetails=${value}`);
    t.equal(read.status, 200, `fetchDetails=${value}`);
    t.match(
      read.body,
      { accepted: true, stores: { github: 'octocat' }, message: 'details fetched successfully.' },
      `fetchDetails=${value}`,
    );
  }
  const form = await post('/aaa/storePersonalInfo.json', { fetchDetails: '1', access_token: user.token });
  t.match(form.body, { accepted: true, stores: { github: 'octocat' } }, 'fetchDetails=1 in a form');

  // Anything else is false, as in the reference: a write, which names no store.
  for (const value of ['0', 'false', 'yes', 'TRUE', '']) {
    const write = await getRaw(`${store}&fetchDetails=${value}`);
    t.same(
      [write.status, write.body.message],
      [422, 'Bad store name encountered!'],
      `fetchDetails=${value || '(empty)'} is false`,
    );
  }
});

t.test('/aaa/login.json: checkLogin=1 and logout=1', async (t) => {
  const u = await seedUser(app);
  const check = await get('/aaa/login.json', { checkLogin: 1 }, u.token);
  t.same([check.status, check.body.loggedIn, check.body.accepted], [200, true, true], 'checkLogin=1');
  const out = await get('/aaa/login.json', { logout: 1 }, u.token);
  t.same([out.status, out.body.message], [200, 'Logout successful'], 'logout=1');
  const after = await get('/aaa/login.json', { checkLogin: 1 }, u.token);
  t.same([after.status, after.body.loggedIn], [200, false], 'the token ended');
});

t.test('/aaa/changeRoles.json and /aaa/getUsers.json: their flags as 1', async (t) => {
  const services = await get('/aaa/changeRoles.json', { getServiceList: 1 }, admin.token);
  t.equal(services.status, 200);
  t.ok(services.body.serviceList?.includes('/aaa/storePersonalInfo.json'), 'getServiceList=1');
  const permissions = await get('/aaa/changeRoles.json', { getUserRolePermission: 1 }, admin.token);
  t.same(permissions.body.userRolePermissions, {}, 'getUserRolePermission=1');

  const pages = await get('/aaa/getUsers.json', { getPageCount: 1 }, admin.token);
  t.equal(pages.body.pageCount, 1, 'getPageCount=1');
  const count = await get('/aaa/getUsers.json', { getUserCount: 1 }, admin.token);
  t.ok(count.body.userCount >= 3, 'getUserCount=1');
  const stats = await get('/aaa/getUsers.json', { getUserStats: 1 }, admin.token);
  t.match(stats.body, { userStats: { totalUsers: Number } }, 'getUserStats=1');
  const devices = await get('/aaa/getUsers.json', { getDeviceStats: 1 }, admin.token);
  t.match(devices.body, { deviceStats: { connectedDevices: Number } }, 'getDeviceStats=1');
});

t.test('/cms: changeSkillStatus, getSkillList and modifySkill read 1 as true', async (t) => {
  const png = await makeImage('png', 40, 40);
  for (const skill of ['alpha', 'beta']) {
    const created = await post('/cms/createSkill.json', {
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill,
      image: new Blob([new Uint8Array(png)], { type: 'image/png' }),
      content: `::name ${skill}\n${skill}\nThe ${skill} skill.`,
      image_name: `${skill}.png`,
      access_token: user.token,
    });
    t.equal(created.body.accepted, true, JSON.stringify(created.body));
  }
  const where = { model: 'general', group: 'Knowledge', language: 'en' };

  // changeSkillStatus: `1` and `0` as true and false; other values are still refused.
  const status = (skill: string, flags: Record<string, unknown>) =>
    get('/cms/changeSkillStatus.json', { ...where, skill, ...flags }, admin.token);
  const set = await status('alpha', { reviewed: 1, staffPick: 1, editable: 0 });
  t.same([set.status, set.body.accepted], [200, true], JSON.stringify(set.body));
  const [row] = await app.sql<
    { reviewed: boolean; staff_pick: boolean; editable: boolean }[]
  >`select reviewed, staff_pick, editable from skills where name = 'alpha'`;
  t.same(row, { reviewed: true, staff_pick: true, editable: false }, 'reviewed=1, staffPick=1, editable=0');
  const bad = await status('beta', { reviewed: 'yes' });
  t.same([bad.status, bad.body.accepted], [400, false], 'reviewed=yes is refused');

  // getSkillList: reviewed=1 and staff_picks=1 filter, applyFilter=1 sorts.
  const list = (params: Record<string, unknown>) => get('/cms/getSkillList.json', { ...where, ...params });
  // The skills listed, or none when the answer is a refusal.
  const listed = (answer: Answer) => Object.keys(answer.body.skills ?? {}).sort();
  const all = await list({});
  t.same(listed(all), ['alpha', 'beta']);
  for (const flag of ['reviewed', 'staff_picks']) {
    const only = await list({ [flag]: 1 });
    t.equal(only.status, 200, `${flag}=1`);
    t.same(listed(only), ['alpha'], `${flag}=1: alpha only`);
    const none = await list({ [flag]: 0 });
    t.same(listed(none), ['alpha', 'beta'], `${flag}=0: all`);
    const refused = await list({ [flag]: 'yes' });
    t.same([refused.status, refused.body.message], [400, 'Bad service call.'], `${flag}=yes`);
  }
  const sorted = await list({ applyFilter: 1, filter_name: 'descending', filter_type: 'lexicographical' });
  t.equal(sorted.status, 200);
  t.same(
    sorted.body.filteredData?.map((r: { skill_tag: string }) => r.skill_tag),
    ['beta', 'alpha'],
    'applyFilter=1 answers filteredData',
  );

  // modifySkill from the editor: imageChanged=1 with a new picture replaces it.
  const image = join(repo, 'models/general/Knowledge/en/images/beta.png');
  const before = await readFile(image);
  const changed = await post('/cms/modifySkill.json', {
    ...editFields({ ...where, skill: 'beta' }, 'beta.png', '::name beta\nbeta\nChanged.', 'New picture', user.token),
    imageChanged: '1',
    image: new Blob([new Uint8Array(await makeImage('jpeg', 90, 30))], { type: 'image/jpeg' }),
  });
  t.same([changed.status, changed.body.accepted], [200, true], JSON.stringify(changed.body));
  t.not(Buffer.compare(await readFile(image), before), 0, 'imageChanged=1: the picture is the new one');
});
