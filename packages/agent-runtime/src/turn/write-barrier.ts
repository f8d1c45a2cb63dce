import { BaseCallbackHandler } from "@langchain/core/callbacks/base";

/**
 * Where a turn waits for its steps to be stored. The graph runs with durability "async": a step's
 * checkpoint is written while the next step runs, so the model is already thinking while the
 * user's message is stored. What must not get ahead of the writes waits here, until every write
 * the graph has asked for so far is stored: a model's answer before the graph acts on it, and a
 * tool call before it runs (its call, in the model step's writes, is then on record). So a crash
 * loses nothing acknowledged and no tool runs unrecorded, as with durability "sync", and a state
 * that cannot be stored (MongoDB down, past its document limit) ends the turn there, with that
 * error. LangGraph itself waits for every write before the turn's stream ends.
 */
export class WriteBarrier extends BaseCallbackHandler {
  name = "WriteBarrier";
  // Only model and tool calls are waited on (LangChain counts tools as the agent's).
  override ignoreChain = true;
  override ignoreRetriever = true;
  override ignoreCustomEvent = true;

  constructor(private readonly stored: () => Promise<void>) {
    // Raised errors are awaited: the model call or tool fails with the write's error.
    super({ raiseError: true });
  }

  override async handleLLMEnd(): Promise<void> {
    await this.stored();
  }

  override async handleToolStart(): Promise<void> {
    await this.stored();
  }
}
