import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  interrupt,
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { APPROVE, DECLINE } from "@switchboard/a2a-client";
import {
  boundedHistory,
  type ContextBudget,
  type ContextSummary,
  type GuardedTools,
  lastUserText,
  type RelayedAnswer,
  type RelayedQuestion,
  requireTurn,
  retryWhenTooLong,
  roomLeft,
  type Summarize,
  type TurnGraph,
  turnOf,
} from "@switchboard/agent-runtime";
import type { SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import { askSubagent, type HopResult, type Hops } from "./delegate.js";
import type { Roster } from "./roster.js";

/** A subagent task waiting for the user's answer (a confirmation, usually). */
interface PendingRelay {
  agent: string;
  taskId: string;
  question: string;
  toolCallId: string;
  /** The call asked for the agent's answer to go to the user as is (see `final`). */
  final: boolean;
  /** A confirmation's hashes of the arguments it shows, passed on to the user's client with the question. */
  argsHashes?: string[] | undefined;
}

const DelegatingState = Annotation.Root({
  ...MessagesAnnotation.spec,
  pendingRelays: Annotation<PendingRelay[]>({ reducer: (_old, next) => next, default: () => [] }),
  // The summary of older messages sent in their place; `messages` keeps the whole conversation.
  contextSummary: Annotation<ContextSummary | undefined>({
    reducer: (_old, next) => next,
    default: () => undefined,
  }),
});
type State = typeof DelegatingState.State;

const CallAgentArgs = z.object({
  agent: z.string().describe("The subagent's name, as listed in the system prompt"),
  message: z.string().describe("What to ask it: the user's request with every detail they gave"),
  final: z
    .boolean()
    .optional()
    .describe(
      "true when this agent's answer alone answers the user: it reaches the user as the agent wrote it, and you are not asked again",
    ),
});

/** Only the schema reaches the model; the delegating graph runs the calls itself (see `delegate`). */
export const callAgentTool = tool(async () => "", {
  name: "call_agent",
  description: "Send a request to one subagent and get its answer",
  schema: CallAgentArgs,
});

/** What the delegating graph works with: the hops' needs, the agent's own tools and its prompt. */
export interface DelegatingDeps extends Hops {
  ownTools?: GuardedTools;
  /**
   * The system prompt, rebuilt before each model call so an agent that joins later is offered at
   * once: the supervisor's, or a configured agent's own followed by its subagents (`subagentsPrompt`).
   * `mayReach` answers for this turn's caller.
   */
  prompt: (roster: Roster, mayReach: (agent: string) => boolean) => string;
}

/**
 * model → delegate (one hop per call_agent call) → model … → answer. A lone call marked `final`
 * skips the last model step: the subagent's answer is the turn's answer. A subagent that asks the
 * user something sends the graph to `relay`, which pauses with the question (persisted in the
 * checkpoint) and sends the user's own answer to that same subagent task: the only way a message
 * names a subagent's task. A hop the model asks for (`call_agent`) always starts new work there, so
 * the model (or text it read from a tool or an agent) can never answer a subagent's question. Each node makes its outside
 * calls only after its pause, so resuming never repeats a hop. With `summarize`, the model is sent
 * a summary of the older messages and the newest ones, while the checkpoint keeps every message; a
 * provider that says the conversation is too long for its model gets it summarized and sent again.
 */
export function buildDelegatingGraph(
  model: BaseChatModel,
  /** With `ownTools`: the agent's own tools (the supervisor's `remember`), behind the runtime's guard. */
  hops: DelegatingDeps,
  checkpointer: BaseCheckpointSaver,
  /** MAX_CONTEXT_TOKENS and MIN_MESSAGES_TO_KEEP, and how older messages are summarized to meet them. */
  context?: { summarize: Summarize; budget: ContextBudget },
): TurnGraph {
  if (!model.bindTools) throw new Error("A delegating agent's model must support tool calling.");
  const { memories, ownTools } = hops;
  // The agent's own tools (the supervisor's `remember`), run by `delegate` beside the hops, each
  // call decided by the agent's policy and audited by the runtime's one guard. Bound at each model
  // call: they may change while the agent runs (the supervisor's knowledge base joins when its
  // server comes up).
  const bindTools = model.bindTools.bind(model);
  const routed = () => bindTools([callAgentTool, ...(ownTools?.tools ?? [])]);

  const callModel = async (state: State, config: LangGraphRunnableConfig) => {
    const turn = turnOf(config);
    await ownTools?.prepare?.(turn);
    const prompt = hops.prompt(hops.roster, (agent) => hops.mayReach(agent, turn?.caller));
    const message = lastUserText(state.messages);
    // `refused`: the provider said the conversation is too long for the model; summarized now.
    const send = async (refused?: SwitchboardError) => {
      const sent = context
        ? await boundedHistory(
            state.messages,
            state.contextSummary,
            context.summarize,
            config.signal,
            refused !== undefined,
          )
        : { messages: state.messages };
      if (refused && !sent.summary) throw refused;
      const recalled = await memories?.contextFor(
        turn,
        message,
        roomLeft(context?.budget.maxTokens, [new SystemMessage(prompt), ...sent.messages]),
      );
      const response = await routed().invoke([
        new SystemMessage(recalled ? `${prompt}\n\n${recalled}` : prompt),
        ...sent.messages,
      ]);
      return { sent, response };
    };
    const { sent, response } = context ? await retryWhenTooLong(context.budget, send) : await send();
    if ((response.tool_calls?.length ?? 0) === 0) memories?.afterAnswer(turn, message, contentText(response));
    return sent.summary ? { messages: [response], contextSummary: sent.summary } : { messages: [response] };
  };

  const delegate = async (state: State, config: LangGraphRunnableConfig) => {
    const turn = requireTurn(config);
    const last = state.messages.at(-1);
    const calls = last && AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
    const pendingRelays: PendingRelay[] = [];
    let reply: string | undefined;
    const messages = await Promise.all(
      calls.map(async (call) => {
        const toolCallId = call.id ?? "";
        const parsed = CallAgentArgs.safeParse(call.args);
        const final = calls.length === 1 && parsed.data?.final === true;
        // Through the guard, with the step's config: the tool waits for the step's writes, as every tool does.
        if (ownTools?.has(call.name)) {
          const result = await ownTools.call(call, config);
          result.id = `hop-${toolCallId}`;
          return result;
        }
        const hop: HopResult =
          call.name !== "call_agent"
            ? { kind: "answer", text: `Unknown tool ${call.name}: use call_agent.` }
            : !parsed.success
              ? {
                  kind: "answer",
                  text: `call_agent needs an agent name and a message: ${parsed.error.message}`,
                }
              : await askSubagent(hops, turn, parsed.data.agent, parsed.data.message, { forward: final });
        if (hop.kind === "question") {
          pendingRelays.push({
            agent: parsed.data?.agent ?? "",
            taskId: hop.taskId,
            question: hop.question,
            toolCallId,
            final,
            ...(hop.argsHashes ? { argsHashes: hop.argsHashes } : {}),
          });
        } else if (final) reply = hop.reply;
        return hopMessage(toolCallId, hop.text);
      }),
    );
    if (reply !== undefined) messages.push(forwardedAnswer(calls[0]?.id ?? "", reply));
    return { messages, pendingRelays };
  };

  const relay = async (state: State, config: LangGraphRunnableConfig) => {
    const [pending, ...rest] = state.pendingRelays;
    if (!pending) return {};
    const turn = requireTurn(config);
    // Who is asked, recorded with the pause: only their message to this task answers it (executor.ts).
    const question: RelayedQuestion = {
      question: `The ${pending.agent} agent asks: ${pending.question}`,
      ...(pending.argsHashes ? { argsHashes: pending.argsHashes } : {}),
      taskId: turn.taskId,
      subject: turn.principal.subject,
    };
    const answer = interrupt(question) as RelayedAnswer;
    // A decision sent without words (a pressed button) goes with its word too, for agents that read only text.
    const words = answer.text || (answer.decision ? decisionText(answer.decision.decision) : "");
    const hop = await askSubagent(hops, turn, pending.agent, words, {
      taskId: pending.taskId,
      forward: pending.final,
      ...(answer.decision ? { decision: answer.decision } : {}),
    });
    const pendingRelays =
      hop.kind === "question"
        ? [{ ...pending, taskId: hop.taskId, question: hop.question, argsHashes: hop.argsHashes }, ...rest]
        : rest;
    // Same id: the hop's tool message is replaced by the outcome the user's answer led to.
    const messages = [hopMessage(pending.toolCallId, hop.text)];
    if (pending.final && hop.kind === "answer" && hop.reply !== undefined)
      messages.push(forwardedAnswer(pending.toolCallId, hop.reply));
    return { messages, pendingRelays };
  };

  const afterModel = (state: State) => {
    const last = state.messages.at(-1);
    return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? "delegate" : END;
  };
  const afterHop = (state: State) => {
    if (state.pendingRelays.length > 0) return "relay";
    // A forwarded answer ends the turn; tool results go back to the model.
    return AIMessage.isInstance(state.messages.at(-1)) ? END : "model";
  };

  const graph = new StateGraph(DelegatingState)
    .addNode("model", callModel)
    .addNode("delegate", delegate)
    .addNode("relay", relay)
    .addEdge(START, "model")
    .addConditionalEdges("model", afterModel, ["delegate", END])
    .addConditionalEdges("delegate", afterHop, ["relay", "model", END])
    .addConditionalEdges("relay", afterHop, ["relay", "model", END])
    .compile({ checkpointer });
  return graph as unknown as TurnGraph;
}

function decisionText(decision: "approve" | "decline"): string {
  return decision === "approve" ? APPROVE : DECLINE;
}

function hopMessage(toolCallId: string, text: string, name = "call_agent"): BaseMessage {
  return new ToolMessage({
    id: `hop-${toolCallId}`,
    tool_call_id: toolCallId,
    name,
    content: text,
  });
}

function contentText(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("");
}

/** A subagent's answer passed to the user as the turn's answer, in the supervisor's voice. */
function forwardedAnswer(toolCallId: string, reply: string): BaseMessage {
  return new AIMessage({ id: `forward-${toolCallId}`, content: reply });
}
