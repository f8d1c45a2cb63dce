// The definitions of configured agents (CAIPE's app-config.yaml and its API), for the host.
export { ANY_AGENT, definitionsApi } from "./api.js";
export { openDefinitions } from "./source.js";
export type * from "./spec.js";
