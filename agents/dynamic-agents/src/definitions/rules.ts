import { CONTRACT_PORTS, DYNAMIC_AGENTS, SUPERVISOR, sameAgentName } from "@switchboard/contract";
import { LLM_PROVIDERS } from "@switchboard/llm";
import { assertValidAgentName } from "@switchboard/utils";

// The rules a definition is held to, each written once: a definition is hostile input (a file an
// operator edits, or a body anyone the policy lets configure sends), so names are checked where they
// become collection names, Cedar ids and URL paths, and every size is bounded.

/** The bounds on one definition: enough for any real agent, small enough that none costs much. */
export const LIMITS = {
  /** The whole file (bytes) and one API body (bytes). */
  fileBytes: 4 * 1024 * 1024,
  bodyBytes: 256 * 1024,
  agents: 1_000,
  toolSources: 500,
  models: 500,
  name: 200,
  description: 4_000,
  systemPrompt: 100_000,
  /** Tool sources one agent allows, and tool names it lists from one. */
  allowedSources: 100,
  toolNames: 1_000,
  subagents: 50,
  teams: 200,
  teamName: 200,
  url: 2_000,
  /** Strings of a tool source (command, args, header and env values) and how many of each. */
  text: 8_000,
  entries: 200,
} as const;

/** This host's own name (its log lines, metrics, hop audience): a configured agent may not take it either. */
export const HOST_NAME = DYNAMIC_AGENTS;

/**
 * Why an id cannot name a configured agent, or undefined when it can. The id becomes the agent's
 * collections (`checkpoints_<id>`), its policy resource (`Switchboard::Agent::"<id>"`) and its path
 * (`/agents/<id>/`), so it follows the agent-name rule; and it may not be (or read as) a packaged
 * agent's name, whose collections and policies it would share.
 */
export function agentIdProblem(id: string): string | undefined {
  try {
    assertValidAgentName(id, "the definition");
  } catch {
    return `${JSON.stringify(id.slice(0, 80))} cannot name an agent: use 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit`;
  }
  const taken = [SUPERVISOR, HOST_NAME, ...Object.keys(CONTRACT_PORTS)].find((name) =>
    sameAgentName(name, id),
  );
  if (taken) {
    return `"${id}" is the name of Switchboard's ${taken} agent (its collections and policies): choose another id`;
  }
  return undefined;
}

/** A tool-source id: tool names offered to the model are `<id>_<tool>`, so no dots. */
export const TOOL_SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const TOOL_SOURCE_ID_RULE = "use 1-64 letters, digits, '_' or '-', starting with a letter or digit";

/** A tool name in allowed_tools or interrupt_on (`*`: every tool of that source, in interrupt_on). */
export const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/;
export const TOOL_NAME_RULE = "use 1-128 letters, digits, '_' or '-'";

/** A subagent's routing name (CAIPE's `SubAgentRef.name`, e.g. `code-reviewer`). */
export const SUBAGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The namespace of interrupt_on for CAIPE's built-in tools (no server prefix). */
export const BUILTIN_NAMESPACE = "builtin";

/** Why `text` is not a URL a subagent can be called at, or undefined when it is one. */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "not a URL: give the agent's A2A endpoint, e.g. https://agents.example.com/weather";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `${url.protocol} URLs are not A2A endpoints: use http or https`;
  }
  if (url.username || url.password) {
    return "a URL with a user name or password in it would leak them to logs and cards: remove them";
  }
  return undefined;
}

/**
 * The providers a configured agent's model may name: CAIPE's (Switchboard's `LLM_PROVIDER` values),
 * and Switchboard's `offline` model (no LLM, no key), which the example `npm start` serves.
 */
export const MODEL_PROVIDERS = [...LLM_PROVIDERS, "offline"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
export const MODEL_PROVIDER_RULE = `use one of CAIPE's providers (${LLM_PROVIDERS.join(", ")}) or Switchboard's offline`;
