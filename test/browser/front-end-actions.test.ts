/**
 * The main actions of the real front end in Chromium against this service, clicked as a person does:
 * an organiser creates an event in the wizard (app/components/forms/wizard/basic-details-step), saves it
 * and publishes it; a speaker submits a session to the call for speakers (app/routes/public/cfs/new-session);
 * an attendee orders a free ticket on the event page (app/components/public/ticket-list, placeOrder in
 * app/controllers/public/index.js, app/controllers/orders/new.js) and a paid one by bank transfer
 * (app/controllers/orders/pending.js), which an organiser marks paid in the order list; an organiser checks an attendee in
 * (app/components/ui-table/cell/events/view/tickets/attendees/cell-action);
 * an administrator edits a user's profile (app/routes/admin/users/view/account/profile). Each passes when
 * its records are stored as the person entered them, and none of our answers is 400 or above.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import type { Response } from 'playwright-core';
import { browserMissing, launchBrowser } from '../helpers/browser.js';
import { describeAnswer, FrontEndTab, frontEndMissing, serveFrontEnd } from '../helpers/front-end-browser.js';
import { listening } from '../helpers/front-end-client.js';
import { seedFrontEndWorld } from '../helpers/front-end-world.js';
import { waitingFor } from './routes.js';

const missing = browserMissing() || frontEndMissing();
if (missing) throw new Error(missing);

t.test('the main actions, clicked in the real front end', async (t) => {
  const { app } = await buildTestApp(t);
  const api = await listening(app);
  const world = await seedFrontEndWorld(app);
  const site = await serveFrontEnd(t, api);
  const browser = await launchBrowser(t);

  /**
   * Runs `steps` in a tab logged in as `who`; then nothing of ours may have failed, unless every failed answer is
   * of a later issue's resource (reported as waiting for it). A page error that is the front end's own (`own`, traced
   * to its source) is printed, not counted.
   */
  const as = async (
    who: { email: string; password: string },
    what: string,
    steps: (tab: FrontEndTab) => Promise<void>,
    own?: { error: RegExp; why: string },
  ) => {
    const tab = await FrontEndTab.open(browser, site, api);
    await tab.logIn(who.email, who.password);
    await steps(tab);
    await tab.settled();
    const problems = tab.take();
    if (own) {
      for (const error of problems.errors.filter((e) => own.error.test(e)))
        t.comment(`FRONT END'S OWN ERROR ${what}: ${error} (${own.why})`);
      problems.errors = problems.errors.filter((e) => !own.error.test(e));
    }
    const found = [...problems.answers.map(describeAnswer), ...problems.errors];
    const waiting = waitingFor(problems);
    if (waiting) t.comment(`WAITING ${what} for ${waiting}: ${found.join('; ')}`);
    else t.strictSame(found, [], `${what}: no failed answer, no page error`);
    await tab.page.context().close();
  };

  await t.test('an organiser creates an event in the wizard, saves it as a draft and publishes it', async (t) => {
    await as(world.organizer, 'the wizard', async (tab) => {
      const { page } = tab;
      await tab.visit('/create');
      await tab.formReady();
      await page.fill('#name', 'Browser Conf');
      await page.click('a.item:has-text("Online")');
      await page.click('button:has-text("Free Ticket")');
      await page.fill('input[name="ticket_name"]', 'Entry');
      await page.fill('input[name="ticket_quantity"]', '50');
      const created = page.waitForResponse((r) => r.url() === `${api}/v1/events` && r.request().method() === 'POST');
      await page.click('button:has-text("Save as draft")');
      t.equal((await created).status(), 201, 'POST /v1/events: created');
      await tab.settled();
      const [event] = await app.sql`select id, identifier, state, online from events where name = 'Browser Conf'`;
      t.ok(event, 'the event is stored');
      t.equal(event?.state, 'draft', 'as a draft');
      const tickets = await app.sql`select name, quantity, type from tickets where event_id = ${event?.id ?? 0}`;
      t.strictSame([...tickets], [{ name: 'Entry', quantity: 50, type: 'free' }], 'with its free ticket');

      await tab.visit(`/events/${event?.identifier}`);
      const published = page.waitForResponse(
        (r) => r.url().startsWith(`${api}/v1/events/`) && r.request().method() === 'PATCH',
      );
      // The publish bar (app/components/events/view/publish-bar) asks in a modal first.
      await page.click('button.green:has-text("Publish"):visible');
      await page.click('.ui.modal .actions button.green:visible');
      t.equal((await published).status(), 200, 'PATCH /v1/events/{id}: saved');
      await tab.settled();
      const [after] = await app.sql`select state from events where name = 'Browser Conf'`;
      t.equal(after?.state, 'published', 'the publish bar publishes it');
    });
  });

  await t.test('a speaker submits a session to the call for speakers', async (t) => {
    await as(world.speaker, 'the call for speakers', async (tab) => {
      const { page } = tab;
      await tab.visit(`/e/${world.identifier}/cfs/new-session`);
      await tab.formReady();
      await page.fill('#session_title_required', 'Robots in the browser');
      const sent = page.waitForResponse((r) => r.url() === `${api}/v1/sessions` && r.request().method() === 'POST');
      await page.click('form button[type="submit"]');
      t.equal((await sent).status(), 201, 'POST /v1/sessions: created');
      await tab.settled();
      const [session] = await app.sql`select state, creator_id from sessions where title = 'Robots in the browser'`;
      t.ok(session, 'the session is stored');
      t.equal(String(session?.creator_id), world.speaker.id, 'made by the speaker');
    });
  });

  /** The answer's status, with its error's detail in the message when it is not `status`. */
  const answered = async (t: Test, answer: Response, status: number, what: string) => {
    const detail =
      answer.status() === status
        ? ''
        : ` (sent ${answer.request().postData()?.slice(0, 1500)}; answered ${(await answer.text()).slice(0, 400)})`;
    t.equal(answer.status(), status, `${what}${detail}`);
  };

  /**
   * The public checkout: one of `ticket` in the event page's ticket list, Order Now (create-order), the ticket
   * holder's names and address on orders/new, and its submit button (app/components/forms/orders/order-form).
   * Answers the order's identifier.
   */
  const checkout = async (t: Test, tab: FrontEndTab, ticket: string, holder: { first: string; last: string }) => {
    const { page } = tab;
    await tab.visit(`/e/${world.identifier}`);
    const quantity = page.locator(`.ui.dropdown:has(input[id="${ticket}_quantity"])`);
    await quantity.click();
    await quantity.locator('.menu .item', { hasText: /^1$/ }).click();
    await tab.settled();
    const created = page.waitForResponse((r) => r.url().startsWith(`${api}/v1/orders/create-order`));
    await page.click('button#total');
    const answer = await created;
    await answered(t, answer, 200, 'POST /v1/orders/create-order: reserved');
    const identifier: string = (await answer.json()).data.attributes.identifier;
    await page.waitForURL(`**/orders/${identifier}/new`);
    await tab.formReady();
    await page.fill('input[name^="firstname_required_"]', holder.first);
    await page.fill('input[name^="lastname_required_"]', holder.last);
    await page.fill('input[name^="email_required_"]', world.attendee.email);
    const saved = page.waitForResponse(
      (r) => r.url().startsWith(`${api}/v1/orders/`) && r.request().method() === 'PATCH',
    );
    await page.click('form button[type="submit"].teal');
    await answered(t, await saved, 200, 'PATCH /v1/orders/{id}: the order moves on');
    await tab.settled();
    return identifier;
  };
  const stored = async (identifier: string) => {
    const [order] = await app.sql`select id, status, amount::float as amount, payment_mode from orders
      where identifier = ${identifier}`;
    const holders =
      await app.sql`select firstname, lastname, ticket_id from attendees where order_id = ${order?.id ?? 0}`;
    return { order, holders: holders.map((h) => ({ ...h, ticket_id: String(h.ticket_id) })) };
  };

  await t.test('an attendee orders a free ticket on the event page', async (t) => {
    let identifier = '';
    await as(world.attendee, 'the order of a free ticket', async (tab) => {
      identifier = await checkout(t, tab, world.ticket, { first: 'Katherine', last: 'Johnson' });
      await tab.page.waitForURL(`**/orders/${identifier}/view`);
    });
    const { order, holders } = await stored(identifier);
    t.match(order, { status: 'completed', amount: 0, payment_mode: 'free' }, 'the order is stored, completed');
    t.strictSame(
      holders,
      [{ firstname: 'Katherine', lastname: 'Johnson', ticket_id: world.ticket }],
      'its holder as typed',
    );
  });

  await t.test('an attendee orders a paid ticket by bank transfer; the organizer marks it paid', async (t) => {
    // What the server computes for one paid ticket (the event's tax and the platform's fee included, if any).
    const priced = await call(app, {
      method: 'POST',
      url: '/v1/orders/calculate-amount',
      token: world.attendee.token,
      body: { tickets: [{ id: world.paidTicket, quantity: 1 }] },
    });
    t.equal(priced.status, 200, 'the price of one paid ticket');
    const total = priced.body.total as number;
    t.ok(total > 0, `it costs ${total}`);
    let identifier = '';
    await as(world.attendee, 'the order of a paid ticket', async (tab) => {
      const { page } = tab;
      identifier = await checkout(t, tab, world.paidTicket, { first: 'Dorothy', last: 'Vaughan' });
      await page.waitForURL(`**/orders/${identifier}/pending`);
      await tab.settled();
      // app/templates/orders/pending.hbs: the methods the event accepts, then Pay Now (completeOrder).
      await page.click('.ui.radio.checkbox:has-text("Bank")');
      const placed = page.waitForResponse(
        (r) => r.url().startsWith(`${api}/v1/orders/`) && r.request().method() === 'PATCH',
      );
      await page.click('button:has-text("Pay Now")');
      await answered(t, await placed, 200, 'PATCH /v1/orders/{id}: placed');
      await page.waitForURL(`**/orders/${identifier}/view`);
    });
    const placed = await stored(identifier);
    t.match(
      placed.order,
      { status: 'placed', amount: total, payment_mode: 'bank' },
      'the order is placed, at the price',
    );
    t.strictSame(
      placed.holders,
      [{ firstname: 'Dorothy', lastname: 'Vaughan', ticket_id: world.paidTicket }],
      'its holder as typed',
    );

    await as(world.organizer, 'marking the order paid', async (tab) => {
      const { page } = tab;
      await tab.visit(`/events/${world.identifier}/tickets/orders/placed`);
      // The order list's Mark Completed (app/templates/components/ui-table/cell/events/view/tickets/orders/cell-order.hbs).
      const row = page.locator('tr', { hasText: identifier });
      await row.locator('.ui.icon.button:has(i.check.icon)').click();
      const completed = page.waitForResponse(
        (r) => r.url().startsWith(`${api}/v1/orders/`) && r.request().method() === 'PATCH',
      );
      await page.click('.ui.modal .actions button.green:visible');
      await answered(t, await completed, 200, 'PATCH /v1/orders/{id}: completed');
    });
    const paid = await stored(identifier);
    t.match(paid.order, { status: 'completed', amount: total, payment_mode: 'bank' }, 'the organizer completes it');
  });

  await t.test('an organiser checks an attendee in from the attendee list', async (t) => {
    await as(
      world.organizer,
      'the attendee check-in',
      async (tab) => {
        const { page } = tab;
        await tab.visit(`/events/${world.identifier}/tickets/attendees/all`);
        const saved = page.waitForResponse(
          (r) => r.url().startsWith(`${api}/v1/attendees/${world.attendeeRecord}`) && r.request().method() === 'PATCH',
        );
        // The seeded holder's row (the checkouts above add others).
        const row = page.locator('tr', { hasText: 'Hopper' });
        await row.locator('.ui.dropdown:has-text("Checkin")').click();
        await row.locator('.ui.dropdown .menu .item.checkbox:visible >> nth=0').click();
        t.equal((await saved).status(), 200, 'PATCH /v1/attendees/{id}: saved');
        const [attendee] =
          await app.sql`select checkin_times from attendees where id = ${Number(world.attendeeRecord)}`;
        t.ok(attendee?.checkin_times, 'a check-in time is stored');
      },
      {
        error: /^Error: Syntax error, unrecognized expression: \[data-value="<input/,
        why:
          'app/templates/components/ui-table/cell/events/view/tickets/attendees/cell-action.hbs puts UiCheckbox items ' +
          "without a data-value in a multiple-selection UiDropdown: on the click, Semantic UI takes the item's HTML as its " +
          'value and looks it up in a jQuery selector, which throws, whatever the API answers',
      },
    );
  });

  await t.test('an administrator edits a user in the admin console', async (t) => {
    await as(world.admin, 'the admin user profile', async (tab) => {
      const { page } = tab;
      await tab.visit(`/admin/users/${world.attendee.id}/account/profile`);
      await tab.formReady();
      await page.fill('#name', 'Grace');
      await page.fill('#last_name', 'Brewster');
      const saved = page.waitForResponse(
        (r) => r.url().startsWith(`${api}/v1/users/${world.attendee.id}`) && r.request().method() === 'PATCH',
      );
      await page.click('button.update-changes');
      t.equal((await saved).status(), 200, 'PATCH /v1/users/{id}: saved');
      const [user] = await app.sql`select first_name, last_name from users where id = ${Number(world.attendee.id)}`;
      t.strictSame({ ...user }, { first_name: 'Grace', last_name: 'Brewster' }, 'the names are stored');
    });
  });
});
