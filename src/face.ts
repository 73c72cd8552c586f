import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

export interface FaceOptions {
  config: Config;
  /** False: the routes are built without touching the database or the disk (the OpenAPI document). */
  connect: boolean;
}

/**
 * One face of the service (authentication, the site-wide routes, files, transfer, the assistant, the app
 * generator): the tags of its operations and the plugin that declares its routes from the configuration.
 * Each is registered in a scope of its own, so its error handler and body parsers stay its own.
 */
export interface Face {
  tags: { name: string; description: string }[];
  routes(app: FastifyInstance, options: FaceOptions): Promise<void>;
}
