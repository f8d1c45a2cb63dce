import { describe, expect, it } from "vitest";
import type { ConversationHistory } from "../client/api.js";
import {
  applyEvent,
  finishItem,
  itemsFromHistory,
  trailSummary,
  workingItem,
} from "../client/conversation.js";

const QUESTION =
  'The jira agent asks: Create a Jira Bug in OPS: "pager storm".\nShall I go ahead? Answer yes or no.';

describe("the conversation as the page shows it", () => {
  it("summarizes a finished trail by the agents asked and their tools, not the supervisor's routing call", () => {
    const trail = [
      "Calling call_agent",
      "Asking the jira agent",
      "jira: Calling search_issues",
      "jira: search_issues done",
      "call_agent done",
    ];
    expect(trailSummary(trail)).toBe("Asked jira · search_issues (5 steps)");
    expect(trailSummary(["Calling list_notes", "list_notes done"])).toBe("Worked · list_notes (2 steps)");
    expect(trailSummary(["Thinking"])).toBe("1 step");
  });

  it("applies streamed events: progress to the trail, answer chunks appended, a final chunk replacing them", () => {
    const shown = new Map<string, string>();
    let item = workingItem();
    item = applyEvent(
      item,
      { kind: "task", taskId: "t1", contextId: "c", state: "submitted" },
      "supervisor",
      shown,
    );
    item = applyEvent(
      item,
      {
        kind: "status",
        taskId: "t1",
        state: "working",
        text: "Calling search_issues",
        metadata: { kind: "tool-call", agent: "jira" },
      },
      "supervisor",
      shown,
    );
    const chunk = (text: string, append: boolean) =>
      ({
        kind: "artifact",
        taskId: "t1",
        name: "answer",
        artifactId: "a",
        text,
        append,
        lastChunk: !append,
      }) as const;
    item = applyEvent(item, chunk("Two ", true), "supervisor", shown);
    item = applyEvent(item, chunk("issues", true), "supervisor", shown);
    expect(item).toMatchObject({
      taskId: "t1",
      trail: ["jira: Calling search_issues"],
      answer: "Two issues",
    });
    item = applyEvent(item, chunk("Two issues are open.", false), "supervisor", shown);
    expect(item.answer).toBe("Two issues are open.");
  });

  it("rebuilds a stored conversation: a confirmation answered, then the answer; a question still open", () => {
    const history: ConversationHistory = {
      contextId: "c",
      title: "jira: create a bug",
      updatedAt: "2026-01-01T00:00:00Z",
      tasks: [
        {
          taskId: "t1",
          state: "completed",
          updatedAt: "2026-01-01T00:00:00Z",
          messages: [
            { role: "user", text: "jira: create a bug" },
            { role: "agent", text: "Asking the jira agent" },
            { role: "agent", text: QUESTION },
            { role: "user", text: "yes" },
            { role: "agent", text: "Asking the jira agent" },
            { role: "agent", text: "Created OPS-7" },
          ],
          answer: "Created OPS-7",
        },
        {
          taskId: "t2",
          state: "input-required",
          updatedAt: "2026-01-01T00:01:00Z",
          messages: [
            { role: "user", text: "jira: create another" },
            { role: "agent", text: QUESTION },
          ],
          answer: "",
        },
      ],
    };
    const items = itemsFromHistory(history).map(({ id: _id, ...rest }) => rest);
    expect(items).toEqual([
      { kind: "user", text: "jira: create a bug" },
      {
        kind: "agent",
        taskId: "t1",
        state: "input-required",
        trail: ["Asking the jira agent"],
        answer: "",
        question: QUESTION,
        reply: "yes",
      },
      {
        kind: "agent",
        taskId: "t1",
        state: "completed",
        trail: ["Asking the jira agent"],
        answer: "Created OPS-7",
      },
      { kind: "user", text: "jira: create another" },
      { kind: "agent", taskId: "t2", state: "input-required", trail: [], answer: "", question: QUESTION },
    ]);
  });

  it("shows a stopped turn as stopped, not as a failure, live and from history", () => {
    const live = finishItem(
      { ...workingItem("t3"), trail: ["Asking the jira agent"] },
      { taskId: "t3", contextId: "c", state: "canceled", text: "Canceled.", artifacts: [] },
    );
    expect(live).toMatchObject({ state: "canceled", trail: ["Asking the jira agent"] });
    expect(live.error).toBeUndefined();
    const history: ConversationHistory = {
      contextId: "c",
      title: "jira: take your time",
      updatedAt: "2026-01-01T00:02:00Z",
      tasks: [
        {
          taskId: "t3",
          state: "canceled",
          updatedAt: "2026-01-01T00:02:00Z",
          messages: [
            { role: "user", text: "jira: take your time" },
            { role: "agent", text: "Asking the jira agent" },
            { role: "agent", text: "Canceled." },
          ],
          answer: "",
        },
      ],
    };
    const [, stored] = itemsFromHistory(history);
    expect(stored).toMatchObject({ state: "canceled", trail: ["Asking the jira agent"], answer: "" });
    expect((stored as { error?: string }).error).toBeUndefined();
  });

  it("keeps an answer's sources, streamed or read back from history, the latest list holding", () => {
    const runbook = {
      title: "Restart payments",
      url: "https://docs.example.com/r",
      datasourceId: "handbook",
      documentId: "r",
    };
    const shown = new Map<string, string>();
    let item = applyEvent(
      workingItem("t1"),
      {
        kind: "artifact",
        taskId: "t1",
        name: "answer",
        artifactId: "a1",
        text: "See [the runbook](https://docs.example.com/r).",
        append: false,
        lastChunk: true,
        sources: [runbook],
      },
      "supervisor",
      shown,
    );
    expect(item.sources).toEqual([runbook]);
    // A later event without sources keeps them; the final result's list holds.
    item = applyEvent(
      item,
      { kind: "status", taskId: "t1", state: "working", text: "Thinking" },
      "supervisor",
      shown,
    );
    expect(item.sources).toEqual([runbook]);
    const done = finishItem(item, {
      taskId: "t1",
      contextId: "c",
      state: "completed",
      text: item.answer,
      artifacts: [item.answer],
      sources: [{ ...runbook, title: "Restart payments (v2)" }],
    });
    expect(done.sources?.map((s) => s.title)).toEqual(["Restart payments (v2)"]);

    const history: ConversationHistory = {
      contextId: "c",
      title: "restart",
      updatedAt: "2026-11-29T10:00:00.000Z",
      tasks: [
        {
          taskId: "t1",
          state: "completed",
          updatedAt: "2026-11-29T10:00:00.000Z",
          messages: [{ role: "user", text: "kb: how do I restart payments?" }],
          answer: "See [the runbook](https://docs.example.com/r).",
          sources: [runbook],
        },
      ],
    };
    const [, answer] = itemsFromHistory(history);
    expect(answer).toMatchObject({ kind: "agent", sources: [runbook] });
  });
});
