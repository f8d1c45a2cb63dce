import { type AgentDefinition, contextSummarizer } from "@switchboard/agent-runtime";
import { unusedCaipeSettings } from "@switchboard/contract";
import { buildDelegatingGraph, HopTelemetry, Roster, readHopCredentials } from "@switchboard/delegation";
import { serveFleetAudit } from "./audit-route.js";
import { joinConfiguredAgents } from "./configured-agents.js";
import { deleteFromSubagents } from "./delete-cascade.js";
import { readConfiguredAgentsSettings } from "./env.js";
import { serveFleetLinkedTokens } from "./linked-tokens-route.js";
import { serveFleetMemories } from "./memory-route.js";
import { joinedTools } from "./own-tools.js";
import { supervisorPrompt } from "./prompt.js";
import { KnowledgeBase } from "./rag/knowledge-base.js";
import { readRagSettings } from "./rag/settings.js";
import { howToEnable, readSubagents } from "./subagents-env.js";
import { serveSubagents } from "./subagents-route.js";

export const supervisorAgent: AgentDefinition = {
  name: "supervisor",
  title: "Switchboard supervisor",
  description:
    "Routes platform-engineering requests to the Jira, GitHub, AWS and other agents it is connected to.",
  systemPrompt: "The supervisor builds its prompt from its subagents' cards.",
  skills: [
    {
      id: "route",
      name: "Platform engineering",
      description: "Answers and acts on requests about the systems its subagents own, asking them over A2A.",
      tags: ["supervisor", "routing", "platform engineering"],
      examples: ["Which Jira issues are open in PLAT?", "List the open pull requests in acme/api"],
    },
  ],
  tools: () => [],
  // Its graph, its GET /subagents and GET /audit (the fleet's), its deletion step and its hop metrics all work on one roster.
  graph: ({
    model,
    context,
    checkpointer,
    agent,
    env,
    logger,
    routes,
    metrics,
    onClose,
    onDeleteConversation,
    audit,
    mayReach: policiesLetReach,
    principalOf,
    memories,
    userData,
    guardTools,
  }) => {
    // A CAIPE .env works unchanged: what it sets for parts Switchboard does not have is named, once.
    for (const line of unusedCaipeSettings(env)) logger.warn(line);
    const { agents, problems } = readSubagents(env);
    for (const problem of problems) logger.error(problem);
    const configured = readConfiguredAgentsSettings(env);
    const rag = readRagSettings(env);
    if (agents.length === 0 && !configured && !rag)
      logger.warn(
        "No subagents are enabled: set ENABLE_<AGENT>=true and <AGENT>_AGENT_URL, or DYNAMIC_AGENTS_URL for configured agents.",
      );
    // Each call to a subagent carries a credential meant for it alone (hop-credentials.ts).
    const credentials = readHopCredentials(env, agent);
    const roster = new Roster(agents, logger, { credentials });
    roster.start();
    onClose(() => roster.stop());
    // Configured agents join and leave as the dynamic-agents host lists them, beside the ENABLE_ ones.
    const joined = configured
      ? joinConfiguredAgents({
          settings: configured,
          fromEnv: agents,
          roster,
          logger,
          self: agent,
          credentials,
        })
      : undefined;
    if (joined) onClose(joined.stop);
    // Where a user may go: where the policies let them, and a team's configured agent for its team alone.
    const mayReach = (name: string, caller: Parameters<typeof policiesLetReach>[1]) =>
      policiesLetReach(name, caller) && (joined?.isFor(name, principalOf(caller)) ?? true);
    onDeleteConversation(deleteFromSubagents(roster));
    serveSubagents({ agent, routes, mayReach }, roster);
    serveFleetAudit({ agent, routes, audit, mayReach }, roster);
    serveFleetLinkedTokens({ routes, mayReach }, roster);
    serveFleetMemories({ routes, userData, mayReach }, roster);
    // ENABLE_RAG: a CAIPE RAG server's tools, offered while its server is up (rag/knowledge-base.ts).
    const knowledge = rag ? new KnowledgeBase(rag, { env, logger, guardTools }) : undefined;
    knowledge?.start();
    if (knowledge) onClose(() => knowledge.close());
    const prompt = (current: Roster, mayReach: (agent: string) => boolean) =>
      knowledge
        ? `${supervisorPrompt(current, mayReach)}\n\n${knowledge.prompt()}`
        : supervisorPrompt(current, mayReach);
    logger.debug({ prompt: prompt(roster, () => true) }, "supervisor prompt");
    // `remember` and the knowledge base's tools go through the same policy and audit as every agent's tools.
    const memoryTools = guardTools(memories?.tools ?? []);
    return buildDelegatingGraph(
      model,
      {
        roster,
        prompt,
        howToAdd: howToEnable,
        telemetry: new HopTelemetry(metrics),
        mayReach,
        memories,
        ownTools: joinedTools(
          [() => memoryTools, () => knowledge?.tools()],
          knowledge ? (turn) => knowledge.prepare(turn) : undefined,
        ),
      },
      checkpointer,
      context ? { summarize: contextSummarizer(model, context, logger), budget: context } : undefined,
    );
  },
};
