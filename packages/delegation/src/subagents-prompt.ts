import type { Roster } from "./roster.js";

/**
 * The "Subagents:" part of a delegating agent's system prompt, from the subagents' cards: each one
 * the caller may reach, by the name `call_agent` takes, with what it does and its skills, or why it is
 * unavailable. Agents the caller may not reach (by the agent's policies) are left out: the model never
 * routes there, and the user is not told what they lack. `none` is said when no agent is left.
 */
export function subagentsPrompt(
  roster: Roster,
  mayReach: (agent: string) => boolean = () => true,
  { none = "(none available)" }: { none?: string } = {},
): string {
  const lines = ["Subagents:"];
  const agents = roster.list().filter((agent) => mayReach(agent.config.name));
  if (agents.length === 0) lines.push(none);
  for (const agent of agents) {
    // The roster's name, which call_agent takes; a card may carry a display name of its own.
    const name = agent.config.name;
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
