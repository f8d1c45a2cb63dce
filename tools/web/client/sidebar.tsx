import type { ConversationSummary, SubagentReport } from "./api.js";
import { ago, pathFor } from "./route.js";

interface ConversationsProps {
  conversations: ConversationSummary[];
  current: string | undefined;
  onOpen(contextId: string | undefined): void;
  onDelete(conversation: ConversationSummary): void;
}

/** The caller's conversations, newest first, with a new one and delete. */
export function Conversations({ conversations, current, onOpen, onDelete }: ConversationsProps) {
  const open = (event: MouseEvent, contextId: string | undefined) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(contextId);
  };
  return (
    <nav aria-labelledby="conversations-heading" class="conversations">
      <h2 id="conversations-heading">Conversations</h2>
      <a class="button primary new" href="/" onClick={(event) => open(event, undefined)}>
        New conversation
      </a>
      {conversations.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul>
          {conversations.map((conversation) => (
            <li key={conversation.contextId} class={conversation.contextId === current ? "current" : ""}>
              <a
                class="link"
                href={pathFor(conversation.contextId)}
                aria-current={conversation.contextId === current ? "page" : undefined}
                onClick={(event) => open(event, conversation.contextId)}
              >
                <span class="title">{conversation.title || "(no text)"}</span>
                <span class="meta">
                  {conversation.state === "input-required" ? "waiting for you · " : ""}
                  <time dateTime={conversation.updatedAt}>{ago(conversation.updatedAt)}</time>
                </span>
              </a>
              <button
                type="button"
                class="icon"
                aria-label={`Delete conversation: ${conversation.title}`}
                title="Delete"
                onClick={() => onDelete(conversation)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

const STATUS_WORDS: Record<SubagentReport["status"], string> = {
  available: "connected",
  connecting: "connecting",
  unreachable: "down",
  refused: "refused",
};

/** The supervisor's subagents: connected or down (and why), and their skills. */
export function Agents({ agents, problem }: { agents: SubagentReport[] | undefined; problem?: string }) {
  return (
    <section aria-labelledby="agents-heading" class="agents">
      <h2 id="agents-heading">Agents</h2>
      {problem ? <p class="error">{problem}</p> : null}
      {agents === undefined ? (
        <p class="muted">Loading…</p>
      ) : agents.length === 0 ? (
        <p class="muted">The supervisor has no subagents enabled.</p>
      ) : (
        <ul>
          {agents.map((agent) => (
            <li key={agent.name} data-agent={agent.name} data-status={agent.status}>
              <div class="agent-line">
                <span class="agent-name">{agent.name}</span>
                <span class={`status status-${agent.status === "available" ? "up" : "down"}`}>
                  {STATUS_WORDS[agent.status]}
                </span>
              </div>
              {agent.reason ? <p class="muted reason">{agent.reason}</p> : null}
              {agent.skills.length > 0 ? (
                <details>
                  <summary>
                    {agent.skills.length} skill{agent.skills.length === 1 ? "" : "s"}
                  </summary>
                  <ul class="skills">
                    {agent.skills.map((skill) => (
                      <li key={skill.id}>
                        <strong>{skill.name}</strong>: {skill.description}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
