export { CHART_VALUES } from "./chart.js";
export { checkFleet } from "./check-fleet.js";
export { COMPOSE_FILE } from "./compose.js";
export type { EnvScanCache } from "./env-scan.js";
export { declaredDependencies, workspacePackages } from "./workspace.js";
