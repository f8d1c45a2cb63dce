export { DEFAULT_MAX_TOOLS } from "./catalog.js";
export * from "./reading.js";
export { type OpenApiTools, type OpenApiToolsOptions, openApiTools, type ToolsOptions } from "./tools.js";
