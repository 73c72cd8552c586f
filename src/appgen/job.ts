import { storageUnavailable } from '../../plugins/storage.js';
import { finishTask, setTaskStatus, taskJob } from '../jobs/task-job.js';
import { BuildError, BuildLog, buildEventApp, type BuildLimits } from './build.js';

export const APP_QUEUE = 'app-build';
/** Every build is in this pg-boss group, whose concurrency bounds the builds running at once on all workers. */
export const APP_GROUP = { id: 'app-builds' };

/** What a build task records (`tasks.options`); `email` and `ip` are what the rate limits count. */
export interface AppTaskOptions {
  email: string;
  app_name: string;
  endpoint: string;
  identifier: string;
  ip: string;
}

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

/**
 * The build job: builds the app, stores the zip in the configured storage and mails it as an
 * attachment; a failure mails the reason with the build log. The mail is recorded in the same
 * transaction that ends the task, so a worker that dies before it leaves the task waiting and the
 * retry builds again: one result, one mail.
 */
export const appBuild = (limits: BuildLimits & { concurrency: number }) =>
  taskJob(
    APP_QUEUE,
    async (app, task) => {
      const options = task.options as AppTaskOptions;
      const to = { address: options.email };
      const name = options.app_name;
      const log = new BuildLog();
      log.add(`Building the app "${name}" (${options.identifier}) from ${options.endpoint}`);
      try {
        const spec = { appName: name, endpoint: options.endpoint, identifier: options.identifier };
        const zip = await buildEventApp(app, spec, limits, log, (status) => setTaskStatus(app.db, task.id, status));
        const backend = await app.storage.select();
        const file = zipName(name);
        const url = await backend.put(`apps/${task.id}/${file}`, zip, 'application/zip').catch((err: unknown) => {
          app.log.error({ err, place: backend.place }, 'storing an app failed');
          throw new BuildError(storageUnavailable().detail);
        });
        await app.mailer.send(
          {
            to,
            subject: `Your app "${name}" is ready`,
            action: 'app-ready',
            text:
              `Your app "${name}" is attached (${file}); it can also be downloaded at\n${url}\n\n` +
              'Unzip it and put its files on any static web server that serves HTTPS; README.txt inside says more.\n',
            attachments: [{ filename: file, content: zip, contentType: 'application/zip' }],
          },
          (tx) => finishTask(tx, task.id, 'SUCCESS', { download_url: url }),
        );
      } catch (err) {
        if (!(err instanceof BuildError)) app.log.error({ err, task: task.id }, 'app build failed');
        const message = err instanceof BuildError ? err.message : 'The build failed on the server';
        log.add(`The build failed: ${message}`);
        await app.mailer.send(
          {
            to,
            subject: `Your app "${name}" could not be built`,
            action: 'app-failed',
            text: `Your app "${name}" could not be built: ${message}\n\nThe build log is attached.\n`,
            attachments: [{ filename: 'build.log', content: log.toString(), contentType: 'text/plain; charset=utf-8' }],
          },
          (tx) => finishTask(tx, task.id, 'FAILED', { __error: true, message }),
        );
      }
    },
    { localConcurrency: limits.concurrency, groupConcurrency: limits.concurrency },
  );
