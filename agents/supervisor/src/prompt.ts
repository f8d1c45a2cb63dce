import type { Roster } from "./roster.js";

/**
 * The supervisor's system prompt, rebuilt before every model call from the subagents' cards, so an
 * agent that joins later is offered at once. Agents the caller may not reach (by the supervisor's
 * policies) are left out: the model never routes there, and the user is not told what they lack.
 */
export function supervisorPrompt(roster: Roster, mayReach: (agent: string) => boolean = () => true): string {
  const lines = [
    "You are the Switchboard supervisor, a platform-engineering assistant. You do not act yourself:",
    "you route each request to the subagent that owns the system it is about, with the call_agent tool,",
    "and answer the user from what the subagents say.",
    "",
    "- Pass the user's request to the agent in plain words, with every detail the user gave.",
    "- A request may need several agents; call them one after another.",
    "- When one agent's answer will be your whole answer, call it with final: true: the user gets the",
    "  agent's answer as it wrote it, sooner. Leave final out to combine, explain or call another agent.",
    "- Subagents ask the user to confirm changes themselves; never confirm on the user's behalf.",
    "- If an agent is unavailable or fails, tell the user which agent and why.",
    "",
    "Subagents:",
  ];
  const agents = roster.list().filter((agent) => mayReach(agent.config.name));
  if (agents.length === 0) lines.push("(none enabled: set ENABLE_<AGENT>=true and <AGENT>_AGENT_URL)");
  for (const agent of agents) {
    const name = agent.card?.name ?? agent.config.name;
    if (agent.status !== "available" || !agent.card) {
      lines.push(`- ${name}: unavailable (${agent.reason ?? "connecting"})`);
      continue;
    }
    lines.push(`- ${name}: ${agent.card.description}`);
    for (const skill of agent.card.skills) {
      const examples = skill.examples.length
        ? ` Examples: ${skill.examples.map((e) => `"${e}"`).join(", ")}.`
        : "";
      lines.push(`  - ${skill.name}: ${skill.description}${examples}`);
    }
  }
  return lines.join("\n");
}
