export {
  AGENTS_FOLDER,
  type AgentPackage,
  listAgentPackages,
  listFleetPackages,
  listHostPackages,
  packageDirOwning,
  readAgentPackage,
} from "./agents.js";
export {
  CAIPE_RAG_TOOLS,
  type ListedTool,
  RAG_FETCH_DOCUMENT,
  RAG_LIST_DATASOURCES,
  RAG_SEARCH,
} from "./caipe-rag-tools.js";
export {
  isFeatureFlag,
  UNUSED_CAIPE_SETTINGS,
  type UnusedCaipeGroup,
  unusedCaipeGroupOf,
  unusedCaipeSettings,
} from "./caipe-settings.js";
export type { AgentPackageKind } from "./kinds.js";
export {
  checkMcpServers,
  type InterpolatedServer,
  interpolateMcpServer,
  type McpHttpServer,
  type McpServerConfig,
  type McpServerInput,
  type McpServersResult,
  type McpSseServer,
  type McpStdioServer,
  type McpVariables,
  mcpReferences,
  mcpVariablePrefix,
  mcpVariablesFor,
  parseMcpServers,
  parseToolNames,
} from "./mcp.js";
export {
  type AgentCollections,
  agentNameFromPackage,
  agentUrlVariableFor,
  collectionsFor,
  DYNAMIC_AGENTS,
  enableVariableFor,
  envPrefixFor,
  hostEnabledVariableFor,
  hostUrlVariableFor,
  SUPERVISOR,
  sameAgentName,
  serviceNameFor,
} from "./names.js";
export { AGENT_NODE_ARGS } from "./node.js";
export { CONTRACT_PORTS, HOST_PORTS, MCP_SERVER_PORT, WEB_UI_PORT } from "./ports.js";
export { AGENT_READY, type AgentReady, announceReady, READY_CHANNEL_ENV, readyMessage } from "./ready.js";
