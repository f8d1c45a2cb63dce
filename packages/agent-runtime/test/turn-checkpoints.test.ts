import type { RunnableConfig } from "@langchain/core/runnables";
import { emptyCheckpoint, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { TurnCheckpoints } from "../src/turn/turn-checkpoints.js";

/** LangGraph's in-memory saver, noting when each write reaches it. */
class NotingSaver extends MemorySaver {
  readonly reached: string[] = [];

  override async put(...args: Parameters<MemorySaver["put"]>): ReturnType<MemorySaver["put"]> {
    this.reached.push(`put ${args[1].id}`);
    return super.put(...args);
  }

  override async putWrites(
    ...args: Parameters<MemorySaver["putWrites"]>
  ): ReturnType<MemorySaver["putWrites"]> {
    this.reached.push(`writes ${args[2]}`);
    return super.putWrites(...args);
  }
}

const thread = (checkpointId?: string): RunnableConfig => ({
  configurable: {
    thread_id: "t1",
    checkpoint_ns: "",
    ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
  },
});

describe("a turn's writes", () => {
  it("reach the saver after the caller's pending work, in the order asked, and a turn waiting for them waits for all", async () => {
    const inner = new NotingSaver();
    const turn = new TurnCheckpoints(inner);
    const first = { ...emptyCheckpoint(), id: "1" };
    const second = { ...emptyCheckpoint(), id: "2" };

    const puts = [
      turn.saver.put(thread(), first, { source: "input", step: -1, parents: {} }, {}),
      turn.saver.putWrites(thread("1"), [["messages", "hi"]], "task-a"),
      turn.saver.put(thread("1"), second, { source: "loop", step: 0, parents: {} }, {}),
    ];
    // Asked for, not yet begun: what the caller does next (its model request) goes first.
    await Promise.resolve();
    expect(inner.reached).toEqual([]);

    // Waiting for the thread's writes covers the ones not yet begun.
    await turn.stored("t1");
    expect(inner.reached).toEqual(["put 1", "writes task-a", "put 2"]);
    expect((await inner.getTuple(thread()))?.checkpoint.id).toBe("2");
    await Promise.all(puts);
  });
});
