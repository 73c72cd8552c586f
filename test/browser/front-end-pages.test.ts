/**
 * Every page of the real front end (app/router.js of open-event-frontend at e6f8b09a, built in
 * ../shared/open-event-frontend/) in Chromium against this service: each role logs in through the login
 * form and opens the routes it uses (routes.ts). A page passes when none of our answers is 400 or above
 * and no page error but the front end's own noise shows. Pages waiting for a later issue's resource are
 * opened too and reported apart, never skipped.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { browserMissing, launchBrowser } from '../helpers/browser.js';
import {
  describeAnswer,
  FrontEndTab,
  frontEndMissing,
  type PageProblems,
  serveFrontEnd,
} from '../helpers/front-end-browser.js';
import { listening } from '../helpers/front-end-client.js';
import { seedFrontEndWorld } from '../helpers/front-end-world.js';
import { type Role, type RouteVisit, routeVisits, waitingFor } from './routes.js';

const missing = browserMissing() || frontEndMissing();
if (missing) throw new Error(missing);

/**
 * Page errors that are the front end's own on one page, whatever the API answers: each was traced to the
 * front end's source (the page sends no request the error could come from). Printed, never counted as a pass of
 * ours; any other problem on the page still fails it.
 */
const FRONT_END_OWN: Record<string, { error: string; why: string }> = {
  '/admin/events/import': {
    error: "TypeError: Cannot read properties of undefined (reading 'count')",
    why:
      'app/templates/components/events/imports-history-section.hbs passes `this.data.meta` to Tables::Default, but ' +
      'the component (app/components/events/imports-history-section.js) loads nothing: the table reads `count` of ' +
      'undefined metadata before any request',
  },
};

const describe = (p: PageProblems) => [...p.answers.map(describeAnswer), ...p.errors].join('; ');

t.test('every route of app/router.js, as the role that uses it', async (t) => {
  const { app } = await buildTestApp(t);
  const api = await listening(app);
  const world = await seedFrontEndWorld(app);
  const site = await serveFrontEnd(t, api);
  const browser = await launchBrowser(t);
  const visits = routeVisits(world);
  const only = process.env.BROWSER_ROUTES?.split(',');

  const results: Array<{ visit: RouteVisit; problems: string; waiting?: string }> = [];

  async function walk(role: Role, mine: RouteVisit[]) {
    const tab = await FrontEndTab.open(browser, site, api);
    if (role === 'anonymous') await tab.load('/');
    else await tab.logIn(world[role].email, world[role].password);
    const login = describe(tab.take());
    for (const visit of mine) {
      tab.expected = visit.provokes ? [visit.provokes] : [];
      await tab.visit(visit.path);
      const problems = tab.take();
      // A provoked failure (a link with a made-up code) is followed by the page's own report of it.
      if (visit.provokes) problems.errors = [];
      results.push({ visit, problems: describe(problems), waiting: waitingFor(problems, visit.waiting) });
    }
    await tab.page.context().close();
    return login;
  }

  // The roles' walks in two lanes of about as many pages, side by side: a page mostly waits for the API to go
  // quiet, and each role has a browser context of its own, so two walks at once halve the time and share nothing.
  const byRole = new Map<Role, RouteVisit[]>();
  for (const v of visits)
    if (!only || only.some((o) => v.path.includes(o))) byRole.set(v.role, [...(byRole.get(v.role) ?? []), v]);
  const lanes: Role[][] = [[], []];
  const size = (lane: Role[]) => lane.reduce((n, role) => n + byRole.get(role)!.length, 0);
  for (const role of [...byRole.keys()].sort((a, b) => byRole.get(b)!.length - byRole.get(a)!.length))
    lanes.sort((a, b) => size(a) - size(b))[0]!.push(role);
  const logins = new Map<Role, string>();
  await Promise.all(
    lanes.map(async (lane) => {
      for (const role of lane) logins.set(role, await walk(role, byRole.get(role)!));
    }),
  );
  for (const role of byRole.keys())
    t.equal(logins.get(role), '', `${role}: the login form signs in and the home page loads cleanly`);
  // Reported in the order of the router, whichever lane finished first.
  results.sort((a, b) => visits.indexOf(a.visit) - visits.indexOf(b.visit));

  let passed = 0;
  let own = 0;
  for (const { visit, problems, waiting } of results) {
    const label = `${visit.route} ${visit.path} (${visit.role})`;
    if (waiting) {
      t.comment(`WAITING ${label} for ${waiting}: ${problems || 'passes already'}`);
      continue;
    }
    const known = FRONT_END_OWN[visit.path];
    if (known && problems === known.error) {
      t.comment(`FRONT END'S OWN ERROR ${label}: ${problems} (${known.why})`);
      own++;
    } else if (problems) t.fail(`${label}: ${problems}`);
    else {
      passed++;
      t.pass(label);
    }
  }
  const waiting = results.filter((r) => r.waiting);
  const waitingPassed = waiting.filter((r) => !r.problems).length;
  t.comment(
    `${passed} of ${results.length - waiting.length} pages pass (${own} with the front end's own error only); ` +
      `${waiting.length} wait for a later issue's resource (${waitingPassed} of them pass already)`,
  );
});
