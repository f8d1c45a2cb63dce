import { type AnswerSource, APPROVE, DECLINE, readQuestion } from "@switchboard/a2a-client";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { type AgentItem, type Item, trailSummary } from "./conversation.js";
import { renderMarkdown } from "./markdown.js";

interface MessagesProps {
  items: Item[];
  busy: boolean;
  onAnswer(item: AgentItem, reply: string): void;
}

/** The conversation: the user's messages, and each stretch of the agent's work. */
export function Messages({ items, busy, onAnswer }: MessagesProps) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: "end" }), [items]);
  return (
    <section class="messages" aria-label="Messages" aria-busy={busy}>
      {items.length === 0 ? (
        <p class="empty muted">Ask the supervisor anything about your platform: it asks the right agent.</p>
      ) : (
        <ol>
          {items.map((item) =>
            item.kind === "user" ? (
              <li key={item.id} class="user">
                <span class="visually-hidden">You: </span>
                <p>{item.text}</p>
              </li>
            ) : (
              <li key={item.id} class="agent">
                <AgentView item={item} busy={busy} onAnswer={onAnswer} />
              </li>
            ),
          )}
        </ol>
      )}
      <div ref={end} />
    </section>
  );
}

function AgentView({ item, busy, onAnswer }: { item: AgentItem } & Omit<MessagesProps, "items">) {
  const working = item.state === "working";
  return (
    <>
      <span class="visually-hidden">Switchboard: </span>
      {working ? (
        <div class="activity" role="status">
          <p class="working">Working…</p>
          {item.trail.length > 0 ? (
            <ul class="trail">
              {item.trail.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : item.trail.length > 0 ? (
        <details class="trail-done">
          <summary>{trailSummary(item.trail)}</summary>
          <ol class="trail">
            {item.trail.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ol>
        </details>
      ) : null}
      {item.answer ? <Answer text={item.answer} /> : null}
      {item.sources?.length ? <Sources id={item.id} sources={item.sources} /> : null}
      {item.question ? <QuestionCard item={item} busy={busy} onAnswer={onAnswer} /> : null}
      {item.state === "canceled" ? <p class="muted">Stopped.</p> : null}
      {item.error ? (
        <p class="error" role="alert">
          {item.error}
        </p>
      ) : null}
    </>
  );
}

/**
 * An answer's markdown, rendered again only when its text changes: as one answer streams, the
 * conversation's earlier answers are not parsed and sanitized again for every piece.
 */
function Answer({ text }: { text: string }) {
  // Sanitized by renderMarkdown (DOMPurify): no script or handler in an answer can run.
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="answer markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * The documents an answer drew on, in the supervisor's order. Titles are text
 * (Preact escapes them); a link is there only for an http(s) address (the a2a-client drops any other)
 * and opens apart from the chat, telling the site nothing about it.
 */
function Sources({ id, sources }: { id: string; sources: AnswerSource[] }) {
  const headingId = `${id}-sources`;
  return (
    <section class="sources" aria-labelledby={headingId}>
      <h3 id={headingId}>Sources</h3>
      <ol>
        {sources.map((source) => (
          <li key={`${source.datasourceId}/${source.documentId}`}>
            {source.url ? (
              <a
                href={source.url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                referrerpolicy="no-referrer"
              >
                {source.title}
              </a>
            ) : (
              <span>{source.title}</span>
            )}
            {source.datasourceId ? <span class="muted"> · {source.datasourceId}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A question on a waiting task: Approve / Decline for a change, else answered in the message box. */
function QuestionCard({ item, busy, onAnswer }: { item: AgentItem } & Omit<MessagesProps, "items">) {
  const question = readQuestion(item.question ?? "");
  const card = useRef<HTMLElement>(null);
  const open = item.reply === undefined;
  // A new question takes the focus, so keyboard and screen-reader users meet it at once.
  useEffect(() => {
    if (open) card.current?.focus();
  }, [open]);
  const headingId = `${item.id}-question`;
  const title = question.confirmation
    ? `${question.agent ? `The ${question.agent} agent` : "The agent"} asks to confirm a change`
    : `${question.agent ? `The ${question.agent} agent` : "The agent"} asks`;
  return (
    <section
      class={`question ${question.confirmation ? "confirmation" : ""} ${open ? "open" : "answered"}`}
      aria-labelledby={headingId}
      tabIndex={-1}
      ref={card}
    >
      <h3 id={headingId}>{title}</h3>
      {question.refusedApproval ? <p class="refusal">{question.refusedApproval}</p> : null}
      <p class="change">{question.text}</p>
      {!open ? (
        <p class="decision">{decisionText(item.reply ?? "", question.confirmation)}</p>
      ) : question.confirmation ? (
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => onAnswer(item, APPROVE)}>
            Approve
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => onAnswer(item, DECLINE)}>
            Decline
          </button>
        </div>
      ) : (
        <p class="muted">Answer in the message box below.</p>
      )}
    </section>
  );
}

function decisionText(reply: string, confirmation: boolean): string {
  if (!confirmation) return `You answered: ${reply}`;
  if (reply === APPROVE) return "You approved this change.";
  if (reply === DECLINE) return "You declined this change.";
  return `You answered: ${reply}`;
}
