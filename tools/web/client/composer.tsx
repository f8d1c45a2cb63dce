import { useRef, useState } from "preact/hooks";

interface ComposerProps {
  busy: boolean;
  /** Set while the agent waits for a typed answer: the box says so. */
  answering: boolean;
  onSend(text: string): void;
  /** Set while a turn runs that can be stopped. */
  onStop?: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line. While a turn runs, Send waits for it
 * (what is typed stays) and Stop ends it.
 */
export function Composer({ busy, answering, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const submit = (event?: Event) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || busy) return;
    onSend(message);
    setText("");
  };
  return (
    <form class="composer" onSubmit={submit}>
      <label for="message" class="visually-hidden">
        {answering ? "Your answer" : "Message"}
      </label>
      <textarea
        id="message"
        ref={box}
        rows={2}
        value={text}
        placeholder={answering ? "Type your answer…" : "Ask about Jira, GitHub, AWS…"}
        onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submit(event);
        }}
      />
      <button type="submit" class="primary" disabled={busy || !text.trim()}>
        Send
      </button>
      {busy ? (
        <button type="button" class="secondary" disabled={!onStop} onClick={onStop}>
          Stop
        </button>
      ) : null}
    </form>
  );
}
