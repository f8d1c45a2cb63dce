// The reading of a description alone, without the runtime: what `pnpm new-agent --openapi` generates
// code from (its own entry point, so the CLI does not load the agent runtime).
export { DEFAULT_MAX_TOOLS } from "./bound.js";
export { type Description, type JsonObject, readDescription } from "./description.js";
export {
  type BodyMediaType,
  bodyKindOf,
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  type Operation,
  type OperationParameter,
  operationsOf,
  resourceKindFor,
  type SecurityRequirement,
  toolNameFor,
} from "./operations.js";
export {
  argumentSchemaOf,
  argumentsOf,
  type Direction,
  exampleArgumentsOf,
  exampleOf,
  zodOf,
} from "./schema.js";
