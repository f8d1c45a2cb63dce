// The conversation the checkpointer bench stores: an agent-shaped LangGraph graph whose every turn
// is a user question, two tool calls with ~1 kB results each and an answer (7 checkpoints a turn),
// run with durability "sync" so that no call overlaps another (the agent runtime makes the same
// calls, each step's while the next runs); and a saver wrapper that times the calls LangGraph
// makes, so put and putWrites are measured on the calls a real turn makes.
import { performance } from "node:perf_hooks";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";

export type TimedOperation = "put" | "putWrites" | "getTuple";

/** Forwards to `inner` (swappable: a fresh reader per turn) and reports how long each call took. */
export class TimedSaver extends BaseCheckpointSaver {
  onTime?: (operation: TimedOperation, ms: number) => void;

  constructor(public inner: BaseCheckpointSaver) {
    super(inner.serde);
  }

  private async timed<T>(operation: TimedOperation, run: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await run();
    this.onTime?.(operation, performance.now() - start);
    return result;
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.timed("getTuple", () => this.inner.getTuple(config));
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return this.timed("put", () => this.inner.put(config, checkpoint, metadata, newVersions));
  }

  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    return this.timed("putWrites", () => this.inner.putWrites(config, writes, taskId, taskPath));
  }

  deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}

const TOOL_CALLS_PER_TURN = 2;
const WORDS =
  "deploy rollback certificate expires cluster latency alert pager database migration index quota token rotate ingress canary budget flaky pipeline runner".split(
    " ",
  );

/** Varied words, so stored text compresses as real tool results do. */
function words(seed: number, count: number): string {
  let x = seed * 2654435761;
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return WORDS[x % WORDS.length];
  }).join(" ");
}

function turnOf(messages: readonly { getType(): string }[]): number {
  return messages.filter((message) => message.getType() === "human").length;
}

/** The model: tool calls until the turn has its two results, then an answer. */
function model(state: typeof MessagesAnnotation.State) {
  const turn = turnOf(state.messages);
  let results = 0;
  for (let i = state.messages.length - 1; i >= 0 && state.messages[i]?.getType() === "tool"; i -= 2)
    results++;
  if (results < TOOL_CALLS_PER_TURN) {
    const call = `call-${turn}-${results}`;
    const jql = `project = PLAT AND text ~ "${words(turn + results, 2)}" ORDER BY updated DESC`;
    return {
      messages: [
        new AIMessage({ content: "", tool_calls: [{ id: call, name: "search_issues", args: { jql } }] }),
      ],
    };
  }
  return { messages: [new AIMessage(`Here is what I found for turn ${turn}: ${words(turn * 7, 60)}`)] };
}

/** The tool: twelve issue rows (~1 kB). */
function tools(state: typeof MessagesAnnotation.State) {
  const call = (state.messages.at(-1) as AIMessage).tool_calls?.[0];
  const seed = state.messages.length;
  const rows = Array.from(
    { length: 12 },
    (_, i) => `PLAT-${seed * 12 + i} open: ${words(seed * 12 + i, 10)}`,
  );
  return { messages: [new ToolMessage({ tool_call_id: call?.id ?? "", content: rows.join("\n") })] };
}

export function agentGraph(saver: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("model", model)
    .addNode("tools", tools)
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) =>
      (state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END,
    )
    .addEdge("tools", "model")
    .compile({ checkpointer: saver });
}

export type AgentGraph = ReturnType<typeof agentGraph>;

/** One turn of the conversation on `thread`, each write awaited before the next step. */
export async function runTurn(graph: AgentGraph, thread: string, turn: number): Promise<void> {
  await graph.invoke(
    { messages: [new HumanMessage(`Question ${turn}: which issues mention ${words(turn, 8)}?`)] },
    { configurable: { thread_id: thread }, durability: "sync" },
  );
}
