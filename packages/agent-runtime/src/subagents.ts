import type { AgentSkillSummary } from "@switchboard/a2a-client";

/** A subagent as its supervisor sees it now: whether calls reach it, and what it can do. */
export interface SubagentReport {
  name: string;
  /** `available` when calls reach it; else why not in `reason`. */
  status: "connecting" | "available" | "refused" | "unreachable";
  /** From its card, once it was read. */
  description?: string;
  skills: AgentSkillSummary[];
  reason?: string;
}

/** Where an agent's graph reports its subagents from (the supervisor's roster); others have none. */
export type SubagentSource = () => SubagentReport[];
