import type { AgentSpec } from "../src/definitions/spec.js";

/** A configured agent's spec for unit tests: global, enabled, no tools, with `fields` on top. */
export const agentSpec = (id: string, fields: Partial<AgentSpec> = {}): AgentSpec => ({
  id,
  name: id,
  description: "",
  systemPrompt: "",
  model: { id: "gpt-4o", provider: "openai" },
  allowedTools: {},
  subagents: [],
  visibility: "global",
  sharedWithTeams: [],
  enabled: true,
  source: "api",
  revision: "r",
  ...fields,
});
