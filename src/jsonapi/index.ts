/**
 * The JSON:API engine's public surface: what resource declarations and the service's other faces
 * use. Everything else under src/jsonapi is the engine's own.
 */
export * from './resource.js';
export type { Caller } from './caller.js';
export * from '../../plugins/http-errors.js';
export * from './types.js';
export { hasNul, INT4_MAX, integerId } from './values.js';
export { ErrorObject, JsonApiVersion, jsonapiMember, MEDIA_TYPE } from './schemas.js';
export { errorResponses, operation, type OperationOptions } from './openapi-operations.js';
export { compatibilityParameters, ignoredListParameters } from './query.js';
export { API_PREFIX, jsonObject, renderedOnce } from './read.js';
export { anyOf, constant } from './records.js';
export { pascal } from './names.js';
export { attributeValues } from './write.js';
export { Registry, valueKind, type Model } from './model.js';
export { default as jsonapi } from './plugin.js';
export { computedListRoute, type ComputedList } from './computed-lists.js';
export { actorOf, recordActivity } from './activity.js';
