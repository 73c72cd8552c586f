/**
 * The translation files (`GET /v1/admin/content/translations/all/`, the admin Translations page's download): a zip of
 * gettext catalogues of the texts of the service's mails, for the content panel only.
 */
import AdmZip from 'adm-zip';
import t from 'tap';
import { MESSAGE_ACTIONS } from '../../plugins/mail-choices.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const admin = await seedUser(app, { admin: true });
const user = await seedUser(app);
const URL = '/v1/admin/content/translations/all/';

const get = (token?: string) => app.inject({ url: URL, headers: token ? { authorization: `JWT ${token}` } : {} });

t.test('an administrator downloads translations.zip: the template and the English catalogue', async (t) => {
  const res = await get(admin.token);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'application/zip');
  t.equal(res.headers['content-disposition'], 'attachment; filename="translations.zip"');
  const zip = new AdmZip(res.rawPayload);
  t.same(
    zip
      .getEntries()
      .map((e) => e.entryName)
      .sort(),
    ['en/LC_MESSAGES/messages.po', 'messages.pot'],
  );
  const pot = zip.readAsText('messages.pot');
  const po = zip.readAsText('en/LC_MESSAGES/messages.po');
  t.match(pot, '"Content-Type: text/plain; charset=UTF-8\\n"');
  const role = MESSAGE_ACTIONS[0]!;
  t.match(pot, `#. event_role: subject\nmsgid "${role.subject}"\nmsgstr ""`);
  t.match(po, `#. event_role: subject\nmsgid "${role.subject}"\nmsgstr "${role.subject}"`);
  t.match(po, '"Language: en\\n"');
  t.match(pot, '#. session_state_change accepted: subject', 'the session state mails too');
  t.match(pot, 'was changed to \\"Accepted\\". Congratulations!', 'quotes escaped');
});

t.test('the content panel only: 401 without a login, 403 for a user', async (t) => {
  const anonymous = await get();
  t.equal(anonymous.statusCode, 401);
  t.equal(JSON.parse(anonymous.body).errors[0].status, '401');
  const refused = await get(user.token);
  t.equal(refused.statusCode, 403);
  t.equal(JSON.parse(refused.body).errors[0].status, '403');
});
