export {
  type Credential,
  credentialsFor,
  fillCredentials,
  readCredentials,
  type SentCredentials,
} from "./auth.js";
export { type Description, type JsonObject, readDescription } from "./description.js";
export {
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
export { type OpenApiTools, type OpenApiToolsOptions, openApiTools, type ToolsOptions } from "./tools.js";
