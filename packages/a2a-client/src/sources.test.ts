import { Message, StreamResponse, Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { partsSources } from "./sources.js";
import { messageText } from "./text.js";
import { collectTurn, taskToTurnResult, toTurnEvent } from "./turn.js";
import type { TurnEvent } from "./types.js";

const SOURCES_META = { "switchboard/type": "sources" };
const RUNBOOK = {
  title: "Restart payments",
  url: "https://wiki.example.com/ops/restart-payments",
  datasource_id: "confluence-ops",
  document_id: "123",
};

function answer(sources: unknown[], text = "Restart it with the runbook [1].") {
  return Message.fromJSON({
    messageId: "m1",
    role: "ROLE_AGENT",
    parts: [{ text }, { data: { sources }, metadata: SOURCES_META }],
  });
}

describe("an answer's sources", () => {
  it("are read from the DataPart and are not part of the answer's text", () => {
    const message = answer([RUNBOOK]);
    expect(partsSources(message.parts)).toEqual([
      {
        title: "Restart payments",
        url: "https://wiki.example.com/ops/restart-payments",
        datasourceId: "confluence-ops",
        documentId: "123",
      },
    ]);
    // Before, a data part was shown as JSON: the list must not land in the answer a person reads.
    expect(messageText(message)).toBe("Restart it with the runbook [1].");
  });

  it("keep other data parts as text, and are absent when no part lists them", () => {
    const message = Message.fromJSON({
      messageId: "m2",
      role: "ROLE_AGENT",
      parts: [{ text: "Found " }, { data: { sources: [RUNBOOK] } }],
    });
    expect(partsSources(message.parts)).toBeUndefined();
    expect(messageText(message)).toContain('"sources"');
  });

  it("drop links a lying agent could use to run script or leave the page oddly, and keep the title", () => {
    const hostile = [
      { ...RUNBOOK, document_id: "a", url: "javascript:alert(document.cookie)" },
      { ...RUNBOOK, document_id: "b", url: "data:text/html,<script>alert(1)</script>" },
      { ...RUNBOOK, document_id: "c", url: "/relative/path" },
      { ...RUNBOOK, document_id: "d", url: 42 },
      { ...RUNBOOK, document_id: "e", url: " https://wiki.example.com/ok " },
    ];
    const sources = partsSources(answer(hostile).parts) ?? [];
    expect(sources.map((s) => [s.documentId, s.url])).toEqual([
      ["a", undefined],
      ["b", undefined],
      ["c", undefined],
      ["d", undefined],
      ["e", "https://wiki.example.com/ok"],
    ]);
    expect(sources.every((s) => s.title === "Restart payments")).toBe(true);
  });

  it("skip malformed entries, keep each document once and cap the list", () => {
    const many = Array.from({ length: 80 }, (_, i) => ({ ...RUNBOOK, document_id: `doc-${i}` }));
    const sources = partsSources(
      answer([null, "text", { title: "no id" }, RUNBOOK, RUNBOOK, { document_id: "x" }, ...many]).parts,
    );
    expect(sources?.[0]?.documentId).toBe("123");
    expect(sources?.[1]).toEqual({ title: "x", datasourceId: "", documentId: "x" });
    expect(sources).toHaveLength(50);
    expect(partsSources(answer("not a list" as unknown as unknown[]).parts)).toEqual([]);
  });

  it("reach a turn's result whether it streamed or came as a task", async () => {
    const sourcesPart = { data: { sources: [RUNBOOK] }, metadata: SOURCES_META };
    const task = Task.fromJSON({
      id: "t1",
      contextId: "c1",
      status: {
        state: "TASK_STATE_COMPLETED",
        message: { messageId: "s1", role: "ROLE_AGENT", parts: [{ text: "Done." }, sourcesPart] },
      },
      artifacts: [{ artifactId: "a1", parts: [{ text: "Restart it [1]." }, sourcesPart] }],
    });
    const result = taskToTurnResult(task);
    expect(result.text).toBe("Restart it [1].");
    expect(result.sources?.map((s) => s.documentId)).toEqual(["123"]);

    const artifactEvent = toTurnEvent(
      StreamResponse.fromJSON({
        artifactUpdate: {
          taskId: "t1",
          contextId: "c1",
          artifact: { artifactId: "a1", parts: [{ text: "Restart it [1]." }, sourcesPart] },
          lastChunk: true,
        },
      }),
    );
    expect(artifactEvent).toMatchObject({ kind: "artifact", text: "Restart it [1]." });
    const events: TurnEvent[] = [
      { kind: "task", taskId: "t1", contextId: "c1", state: "working" },
      artifactEvent as TurnEvent,
      { kind: "status", taskId: "t1", state: "completed" },
    ];
    async function* stream() {
      yield* events;
    }
    const collected = await collectTurn(stream());
    expect(collected.sources?.map((s) => s.url)).toEqual(["https://wiki.example.com/ops/restart-payments"]);
  });
});
