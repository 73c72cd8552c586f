import { storageUnavailable } from '../../plugins/storage.js';
import type { OutgoingMail } from '../../plugins/mailer.js';
import type { FastifyInstance } from 'fastify';
import { withSlot } from '../jobs/slots.js';
import {
  finishTask,
  setTaskStatus,
  TASK_RETRIES,
  TaskEnded,
  taskJob,
  type AbandonedMail,
  type Task,
} from '../jobs/task-job.js';
import { BuildError, BuildLog, buildEventApp, type BuildLimits } from './build.js';

export const APP_QUEUE = 'app-build';
/** Every build is in this pg-boss group, whose concurrency bounds the builds running at once on all workers. */
export const APP_GROUP = { id: 'app-builds' };

/**
 * What a build task records (`tasks.options`): the request, and who asked in the terms the rate limits
 * count (`mailbox`: the address without a +tag; `client`: the client address, an IPv6 one by its /64),
 * kept with the build after the limits' hits are gone.
 */
export interface AppTaskOptions {
  email: string;
  /** Null: named after the event (the v2 entry points), known once the build has read it. */
  app_name: string | null;
  endpoint: string;
  identifier: string;
  mailbox: string;
  client: string;
}

/** Larger zips are not attached (mail servers commonly refuse messages over 20-25 MB); the mail links them. */
export const MAX_ATTACHMENT_BYTES = 15 * 1024 * 1024;

/** The zip's file name: the app name's Latin letters (accents dropped) and digits, else `event-app`. */
export const zipName = (appName: string) =>
  `${
    appName
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase() || 'event-app'
  }.zip`;

/** How mails name the app: by its name, or, before the build has read the event's, by the endpoint. */
const named = (appName: string | null, endpoint: string) => (appName === null ? `for ${endpoint}` : `"${appName}"`);

const failedMail = (
  options: AppTaskOptions,
  message: string,
  log: BuildLog,
  appName = options.app_name,
): OutgoingMail => ({
  to: { address: options.email },
  subject: `Your app ${named(appName, options.endpoint)} could not be built`,
  action: 'app-failed',
  text: `Your app ${named(appName, options.endpoint)} could not be built: ${message}\n\nThe build log is attached.\n`,
  attachments: [{ filename: 'build.log', content: log.toString(), contentType: 'text/plain; charset=utf-8' }],
});

/** The mail of a build given up after its retries (the worker died each time). */
export const appAbandonedMail: AbandonedMail = async (_app, task, message) => {
  const log = new BuildLog();
  log.add(`The build was given up: it did not end after ${TASK_RETRIES + 1} attempts`);
  return failedMail(task.options as AppTaskOptions, message, log);
};

/**
 * The build job: at most `concurrency` builds run at once over all workers (build slots), each
 * building the app, storing the zip in the configured storage and mailing it (attached unless too
 * large); a failure mails the reason with the build log. The mail is recorded in the transaction
 * that ends the task, and only while the task waits, so a worker that dies leaves the task waiting
 * for the retry, and two runs of one job still end it once: one result, one mail.
 */
export const appBuild = (limits: BuildLimits & { concurrency: number }) =>
  taskJob(APP_QUEUE, (app, task) => withSlot(app.sql, APP_QUEUE, limits.concurrency, () => build(app, task, limits)), {
    // pg-boss expires (and retries) a job that runs longer than this: the build's own deadline comes first.
    queue: { expireInSeconds: Math.ceil(limits.timeoutMs / 1000) + 120 },
    // Fetching as many as may run keeps the slots busy; the slots themselves are the bound.
    work: { localConcurrency: limits.concurrency, groupConcurrency: limits.concurrency },
  });

async function build(app: FastifyInstance, task: Task, limits: BuildLimits) {
  const options = task.options as AppTaskOptions;
  let name = options.app_name;
  const log = new BuildLog();
  log.add(
    `Building the app ${name === null ? '(named after the event)' : `"${name}"`} (${options.identifier}) from ${options.endpoint}`,
  );
  let mail: OutgoingMail;
  let end: { state: 'SUCCESS' | 'FAILED'; result: object };
  try {
    const spec = { appName: name, endpoint: options.endpoint, identifier: options.identifier };
    const built = await buildEventApp(spec, limits, log, (status) => setTaskStatus(app.db, task.id, status));
    const zip = built.zip;
    name = built.appName;
    const backend = await app.storage.select();
    const file = zipName(name);
    const url = await backend.put(`apps/${task.id}/${file}`, zip, 'application/zip').catch((err: unknown) => {
      app.log.error({ err, place: backend.place }, 'storing an app failed');
      throw new BuildError(storageUnavailable().detail);
    });
    const attached = zip.length <= MAX_ATTACHMENT_BYTES;
    mail = {
      to: { address: options.email },
      subject: `Your app "${name}" is ready`,
      action: 'app-ready',
      text:
        `Your app "${name}" ${attached ? `is attached (${file}); it can also be downloaded` : 'is too large to attach; download it'} at\n${url}\n\n` +
        'Unzip it and put its files on any static web server that serves HTTPS; README.txt inside says more.\n',
      attachments: attached ? [{ filename: file, content: zip, contentType: 'application/zip' }] : [],
    };
    end = { state: 'SUCCESS', result: { download_url: url } };
  } catch (err) {
    if (!(err instanceof BuildError)) app.log.error({ err, task: task.id }, 'app build failed');
    const message = err instanceof BuildError ? err.message : 'The build failed on the server';
    log.add(`The build failed: ${message}`);
    mail = failedMail(options, message, log, name);
    end = { state: 'FAILED', result: { __error: true, message } };
  }
  await app.mailer
    .send(mail, (tx) => finishTask(tx, task.id, end.state, end.result))
    .catch((err: unknown) => {
      if (!(err instanceof TaskEnded)) throw err;
    });
}
