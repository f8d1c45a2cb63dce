import {
  APPROVER_HEADER,
  collectTurn,
  relayedMetadata,
  type SendInput,
  type TurnEvent,
  type TurnResult,
} from "@switchboard/a2a-client";
import {
  ANSWER_WITHOUT_TOKENS_EXTENSION,
  approverOf,
  BUDGET_HEADER,
  type DecisionAnswer,
  formatBudget,
  MEMORIES_HEADER,
  passOnMemories,
  SPEND_METADATA_KEY,
  type TurnContext,
  type TurnMemories,
  type User,
} from "@switchboard/agent-runtime";
import type { HopTelemetry } from "./hop-telemetry.js";
import type { Roster, Subagent } from "./roster.js";

/**
 * What a hop needs: the subagents to route to, where the hop is timed and traced, and whether a
 * caller may reach an agent (the supervisor's policies, on the turn's caller: undefined when
 * anonymous; each subagent decides again itself).
 */
export interface Hops {
  roster: Roster;
  telemetry: HopTelemetry;
  mayReach: (agent: string, caller: User | undefined) => boolean;
  /** The user's memories recalled for this turn: a new hop passes them on (the subagent has its own store). */
  memories?: TurnMemories;
  /**
   * How an agent the model named that is not there would be added (the supervisor: its ENABLE_
   * variables), said after "No agent named …"; nothing when it has nothing to say.
   */
  howToAdd?: (name: string) => string | undefined;
}

/**
 * What one hop to a subagent produced: text for the model (with `reply`, the agent's own words,
 * when it answered), or a question to relay to the user.
 */
export type HopResult =
  | { kind: "answer"; text: string; reply?: string }
  | { kind: "question"; taskId: string; question: string; text: string; argsHashes?: string[] };

/** The A2A service parameter (HTTP header) naming the extensions a client asks for. */
const EXTENSIONS_HEADER = "A2A-Extensions";

/** How a hop is sent: to a task that waits for an answer, and whether its answer is the turn's. */
export interface HopOptions {
  /**
   * The subagent's task that asked the user something (the message answers it): set only by the
   * relay of the user's own answer, never for a hop the model asks for.
   */
  taskId?: string;
  /** The user's explicit decision on the subagent's change, passed on as a decision part. */
  decision?: DecisionAnswer;
  /** The subagent's answer is the turn's answer (`final`): it streams to the caller as it is written. */
  forward?: boolean;
}

/**
 * Sends one message to a subagent on the supervisor's own conversation: the A2A contextId (and
 * metadata.context_id) as the caller sent it, and a token signed for that agent alone on the
 * caller's behalf (roster.bearerFor: never the caller's own token, which the agent could replay
 * elsewhere). The subagent's progress is streamed to the caller as it happens, and with `forward`
 * its answer too.
 */
export async function askSubagent(
  { roster, telemetry, mayReach: mayReachFor, memories, howToAdd }: Hops,
  turn: TurnContext,
  name: string,
  message: string,
  { taskId, forward = false, decision }: HopOptions = {},
): Promise<HopResult> {
  const mayReach = (agent: string) => mayReachFor(agent, turn.caller);
  const agent = roster.get(name);
  // Said as if it were not enabled: a caller learns nothing of agents kept from them.
  if (!agent || !mayReach(agent.config.name)) {
    const enabled = roster
      .list()
      .map((entry) => entry.config.name)
      .filter(mayReach);
    const how = howToAdd?.(name);
    const advice = how ? ` ${how}` : "";
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

  // What is left of the turn's budget goes with the hop, and what the hop spent is charged back
  // (turn/budget.ts); with nothing left, the hop is not made and the turn stops, saying so.
  const { budget } = turn;
  const passedOn = budget?.remaining();
  if (budget && !budget.beforeHop(agent.config.name))
    return answer(`Nothing is left of the turn's budget for the ${agent.config.name} agent.`);
  turn.report({
    text: `Asking the ${agent.config.name} agent`,
    metadata: { kind: "agent-call", agent: agent.config.name },
  });
  // What the user asked to be remembered goes with a new request, never with an answer to a
  // question, and in a header (MEMORIES_HEADER), not the message: the subagent's prompt reads it
  // for this turn, its checkpoints and tasks never store it, so a memory deleted is gone there too.
  const recalled = taskId ? undefined : memories?.recalledInTurn(turn);
  const token = await roster.bearerFor(agent, turn.caller);
  const input: SendInput = {
    text: message,
    contextId: turn.contextId,
    ...(token ? { token } : {}),
    signal: turn.signal,
  };
  if (taskId) input.taskId = taskId;
  if (taskId && decision) {
    input.decision = decision.decision;
    if (decision.argsHashes) input.argsHashes = decision.argsHashes;
  }
  // An answer the supervisor's model reads whole needs no token stream; a forwarded one streams on,
  // when the turn's caller reads the answer as it is written.
  const streams = forward && turn.streamAnswer !== undefined;
  const headers: Record<string, string> = {};
  if (!streams) headers[EXTENSIONS_HEADER] = ANSWER_WITHOUT_TOKENS_EXTENSION;
  // Someone else answering the caller's question goes with the answer: the subagent whose change
  // waits decides whether they may (agent-runtime's turn/approval.ts).
  // It is signed for this agent alone too: the approver's own token never leaves the supervisor.
  const approver = taskId ? approverOf(turn.caller) : undefined;
  const approverToken = approver ? await roster.bearerFor(agent, approver) : undefined;
  if (approverToken) headers[APPROVER_HEADER] = `Bearer ${approverToken}`;
  if (recalled) headers[MEMORIES_HEADER] = passOnMemories(recalled);
  // A turn on a budget (a triggered run's) passes on what is left of it: the subagent spends from that.
  if (budget?.limited && passedOn) headers[BUDGET_HEADER] = formatBudget(passedOn);
  if (Object.keys(headers).length > 0) input.headers = headers;
  // The call that asked for this hop is stored before the hop goes out (the graph stores each step
  // while the next runs): a crash cannot leave a hop made that the conversation does not show.
  await turn.stored();
  let result: TurnResult;
  let subtask = taskId;
  try {
    result = await telemetry.observe(agent.config.name, () =>
      collectTurn(
        relayEvents(agent, turn, connection.stream(input), streams, (id) => {
          subtask = id;
        }),
      ),
    );
  } catch (error) {
    // A subagent that took the task may have spent before it failed: it said nothing, so it is
    // charged what it was given.
    if (subtask && passedOn) budget?.charge(agent.config.name, passedOn, undefined);
    if (turn.signal.aborted) {
      // This turn was canceled (or its replica is going away): the subagent's turn stops too, so
      // it changes nothing more and frees the conversation's thread there at once.
      if (subtask) await roster.cancelTask(agent, subtask, turn.caller);
      throw error;
    }
    const reason = error instanceof Error ? error.message : String(error);
    roster.reportUnreachable(agent, reason);
    return answer(`The ${agent.config.name} agent could not be reached: ${reason}`);
  }
  if (passedOn) budget?.charge(agent.config.name, passedOn, result.metadata?.[SPEND_METADATA_KEY]);
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
        ...(result.argsHashes ? { argsHashes: result.argsHashes } : {}),
      };
    }
    case "failed":
      return answer(`The ${name} agent failed: ${result.text || "it gave no reason"}`);
    default:
      return answer(`The ${name} agent ended in state ${result.state}: ${result.text}`);
  }
}

/**
 * Passes the subagent's events on to the turn's caller as they arrive: its progress prefixed with its
 * name, its metadata kept whole under the relay's own (`relayedMetadata`), and with `forward` the growth of its answer (token chunks; a final chunk that
 * repeats the whole answer adds only what the chunks did not). The turn's final answer replaces
 * what streamed, so a subagent whose last word differs from its chunks still ends right.
 */
async function* relayEvents(
  agent: Subagent,
  { report, streamAnswer }: Pick<TurnContext, "report" | "streamAnswer">,
  events: AsyncIterable<TurnEvent>,
  forward: boolean,
  onTask: (taskId: string) => void,
): AsyncIterable<TurnEvent> {
  const answer = { artifactId: "", text: "" };
  for await (const event of events) {
    if (event.kind === "task") onTask(event.taskId);
    if (event.kind === "status" && event.state === "working" && event.text) {
      report({
        text: `${agent.config.name}: ${event.text}`,
        metadata: relayedMetadata(agent.config.name, event.metadata),
      });
    }
    if (forward && streamAnswer && event.kind === "artifact") {
      // A new artifact is the newest answer (the one the turn ends with); its text starts afresh.
      if (event.artifactId !== answer.artifactId)
        Object.assign(answer, { artifactId: event.artifactId, text: "" });
      const text = event.append ? answer.text + event.text : event.text;
      if (text.startsWith(answer.text) && text.length > answer.text.length) {
        streamAnswer(text.slice(answer.text.length));
      }
      answer.text = text;
    }
    yield event;
  }
}
