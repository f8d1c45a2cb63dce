import { useCallback } from "preact/hooks";
import { type AccountApi, useAccountList } from "./account-api.js";

/**
 * What the agents remember about the user (what they asked to be remembered, and facts extracted
 * when that is on): each with its agent and when it was last used, erased one by one or all at
 * once; and "forget me", which also erases every conversation (the audit trail stays).
 */
export function MemoriesPage({ api, fail }: { api: AccountApi; fail(error: unknown): string }) {
  const load = useCallback(() => api.memories(), [api]);
  const { value: answer, problem, notice, act } = useAccountList(load, fail);

  return (
    <section aria-labelledby="memories-heading" class="memories">
      <h2 id="memories-heading">Memories</h2>
      <p class="muted">
        What the agents remember about you across conversations. Ask an agent to “remember that …” to add one.
        Memories not used for a while are forgotten.
      </p>
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? <output class="notice">{notice}</output> : null}
      {answer === undefined ? <p class="muted">Loading…</p> : null}
      {answer && answer.memories.length === 0 ? <p class="muted">Nothing is remembered about you.</p> : null}
      <ul class="memory-list">
        {answer?.memories.map((memory) => (
          <li key={`${memory.agent}/${memory.id}`}>
            <span class="memory-text">{memory.text}</span>{" "}
            <span class="muted">
              {memory.agent} · {memory.source === "user" ? "you asked" : "learned"} · last used{" "}
              {new Date(memory.usedAt).toLocaleString()}
            </span>{" "}
            <button type="button" onClick={() => void act(() => api.forgetMemory(memory), "Forgotten.")}>
              Forget
            </button>
          </li>
        ))}
      </ul>
      {answer?.unavailable.length ? (
        <p class="muted">Not reachable now: {answer.unavailable.map((entry) => entry.agent).join(", ")}.</p>
      ) : null}
      <p>
        <button
          type="button"
          disabled={!answer?.memories.length}
          onClick={() => void act(() => api.forgetAllMemories(), "Every memory is forgotten.")}
        >
          Forget all memories
        </button>{" "}
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (!confirm("Erase all your conversations and memories on every agent? This cannot be undone."))
              return;
            void act(() => api.forgetMe(), "Your conversations and memories are erased.");
          }}
        >
          Forget me
        </button>
      </p>
    </section>
  );
}
