import { setTimeout as sleep } from "node:timers/promises";
import { AIMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver } from "@langchain/langgraph";

/**
 * The framework's in-memory saver with every write taking `writeMs`, recording what it has stored
 * in order: "checkpoint", or a step's "writes" (naming the tool calls they hold). For tests of
 * what a turn does while its steps are still being stored.
 */
export class SlowSaver extends MemorySaver {
  readonly stored: string[] = [];
  /** Set: a step's writes that hold a tool call fail with it (the store went away). */
  failToolCallWrites: Error | undefined;
  /** Set: every write waits for it too (a test holds the writes until something else happened). */
  holdUntil: Promise<unknown> | undefined;

  constructor(private readonly writeMs = 150) {
    super();
  }

  override async put(...args: Parameters<MemorySaver["put"]>): Promise<RunnableConfig> {
    await Promise.all([sleep(this.writeMs), this.holdUntil]);
    const saved = await super.put(...args);
    this.stored.push("checkpoint");
    return saved;
  }

  override async putWrites(...args: Parameters<MemorySaver["putWrites"]>): Promise<void> {
    const [, writes] = args;
    await Promise.all([sleep(this.writeMs), this.holdUntil]);
    const calls = writes
      .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
      .flatMap((value) => (AIMessage.isInstance(value) ? (value.tool_calls ?? []) : []))
      .map((call) => call.name);
    if (calls.length > 0 && this.failToolCallWrites) throw this.failToolCallWrites;
    await super.putWrites(...args);
    this.stored.push(calls.length > 0 ? `writes calling ${calls.join(", ")}` : "writes");
  }
}
