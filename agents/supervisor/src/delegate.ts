import { collectTurn, type SendInput, type TurnEvent, type TurnResult } from "@switchboard/a2a-client";
import { currentTurn } from "@switchboard/agent-runtime";
import { agentUrlVariableFor, enableVariableFor, envPrefixFor } from "@switchboard/contract";
import type { HopTelemetry } from "./hop-telemetry.js";
import type { Roster, Subagent } from "./roster.js";

/**
 * What a hop needs: the subagents to route to, where the hop is timed and traced, and whether the
 * turn's caller may reach an agent (the supervisor's policies; each subagent decides again itself).
 */
export interface Hops {
  roster: Roster;
  telemetry: HopTelemetry;
  mayReach: (agent: string) => boolean;
}

/**
 * What one hop to a subagent produced: text for the model (with `reply`, the agent's own words,
 * when it answered), or a question to relay to the user.
 */
export type HopResult =
  | { kind: "answer"; text: string; reply?: string }
  | { kind: "question"; taskId: string; question: string; text: string };

/**
 * Sends one message to a subagent on the supervisor's own conversation: the A2A contextId (and
 * metadata.context_id) as the caller sent it, and the caller's token. The subagent's progress is
 * streamed to the caller as it happens.
 */
export async function askSubagent(
  { roster, telemetry, mayReach }: Hops,
  name: string,
  message: string,
  taskId?: string,
): Promise<HopResult> {
  const agent = roster.get(name);
  // Said as if it were not enabled: a caller learns nothing of agents kept from them.
  if (!agent || !mayReach(agent.config.name)) {
    const enabled = roster
      .list()
      .map((entry) => entry.config.name)
      .filter(mayReach);
    // A name with no letters or digits has no variables to suggest.
    const advice = envPrefixFor(name)
      ? ` To add one, set ${enableVariableFor(name)}=true and ${agentUrlVariableFor(name)}.`
      : "";
    return answer(
      `No agent named "${name}" is enabled${enabled.length ? ` (enabled: ${enabled.join(", ")})` : ""}.${advice}`,
    );
  }
  const { connection } = agent;
  if (!connection) {
    telemetry.countUnavailable(agent.config.name);
    return answer(
      `The ${agent.config.name} agent is not available: ${agent.reason ?? "it has not connected yet"}.`,
    );
  }

  const turn = currentTurn();
  turn.report({
    text: `Asking the ${agent.config.name} agent`,
    metadata: { kind: "agent-call", agent: agent.config.name },
  });
  const input: SendInput = {
    text: message,
    contextId: turn.contextId,
    token: turn.token,
    signal: turn.signal,
  };
  if (taskId) input.taskId = taskId;
  let result: TurnResult;
  let subtask = taskId;
  try {
    result = await telemetry.observe(agent.config.name, () =>
      collectTurn(
        relayProgress(agent, connection.stream(input), (id) => {
          subtask = id;
        }),
      ),
    );
  } catch (error) {
    if (turn.signal.aborted) {
      // This turn was canceled (or its replica is going away): the subagent's turn stops too, so
      // it changes nothing more and frees the conversation's thread there at once.
      if (subtask) await roster.cancelTask(agent, subtask, turn.token);
      throw error;
    }
    const reason = error instanceof Error ? error.message : String(error);
    roster.reportUnreachable(agent, reason);
    return answer(`The ${agent.config.name} agent could not be reached: ${reason}`);
  }
  return fromResult(agent, result);
}

function answer(text: string): HopResult {
  return { kind: "answer", text };
}

function fromResult(agent: Subagent, result: TurnResult): HopResult {
  const name = agent.config.name;
  // A task's artifacts accumulate over its turns; the newest one answers this turn.
  const latest = result.artifacts.at(-1) ?? result.text;
  switch (result.state) {
    case "completed":
      return { kind: "answer", text: `The ${name} agent answered: ${latest}`, reply: latest };
    case "input-required":
    case "auth-required": {
      const question = result.question ?? result.text;
      return {
        kind: "question",
        taskId: result.taskId,
        question,
        text: `The ${name} agent asks: ${question}`,
      };
    }
    case "failed":
      return answer(`The ${name} agent failed: ${result.text || "it gave no reason"}`);
    default:
      return answer(`The ${name} agent ended in state ${result.state}: ${result.text}`);
  }
}

async function* relayProgress(
  agent: Subagent,
  events: AsyncIterable<TurnEvent>,
  onTask: (taskId: string) => void,
): AsyncIterable<TurnEvent> {
  const { report } = currentTurn();
  for await (const event of events) {
    if (event.kind === "task") onTask(event.taskId);
    if (event.kind === "status" && event.state === "working" && event.text) {
      report({
        text: `${agent.config.name}: ${event.text}`,
        metadata: { ...event.metadata, kind: "agent-status", agent: agent.config.name },
      });
    }
    yield event;
  }
}
