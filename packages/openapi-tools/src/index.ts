export * from "./reading.js";
export { type OpenApiTools, type OpenApiToolsOptions, openApiTools, type ToolsOptions } from "./tools.js";
