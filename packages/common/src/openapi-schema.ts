// An OpenAPI description's schemas (3.0 and 3.1) read as plain JSON Schema, and valid examples of them.
// Shared by @switchboard/openapi-tools (tool arguments) and the fake made from a description
// (testing/fake-vendors, which openapi-tools' tests use, so it cannot depend on openapi-tools). Its own
// entry point, not the index: browser bundles import the index.
export { exampleOf } from "./openapi-example.js";
export {
  type Direction,
  isBounded,
  markReference,
  type NormalSchemaOptions,
  normalSchemaOf,
  SCHEMA_LIMITS,
  SCHEMA_REF,
} from "./openapi-normal.js";
