/**
 * What a package under agents/ serves: `agent`, one agent (the default), or `host`, a process that
 * serves many agents made from configuration (agents/dynamic-agents), each at `/agents/<id>/`. A host
 * has no `src/agent.ts`, and the supervisor finds its agents through `<HOST>_URL`
 * (`DYNAMIC_AGENTS_URL`, CAIPE's name), not `ENABLE_<AGENT>`. Its package.json says so:
 * `"switchboard": { "port": 8100, "kind": "host" }`.
 */
export type AgentPackageKind = "agent" | "host";
export const AGENT_PACKAGE_KINDS: readonly AgentPackageKind[] = ["agent", "host"];
