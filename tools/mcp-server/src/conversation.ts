/** The supervisor's GET /conversations/:contextId (agent-runtime's conversations/history.ts), as read here. */
export interface ConversationHistory {
  contextId: string;
  title: string;
  updatedAt: string;
  tasks: Array<{
    taskId: string;
    state: string;
    updatedAt: string;
    messages: Array<{ role: "user" | "agent"; text: string }>;
    answer: string;
  }>;
}

/** A conversation as text a person (or their coding assistant) reads: each turn's words and answer. */
export function conversationText(history: ConversationHistory): string {
  const lines = [
    `# ${history.title || history.contextId}`,
    `Conversation ${history.contextId}, last activity ${history.updatedAt}.`,
  ];
  for (const task of history.tasks) {
    for (const message of task.messages) {
      if (message.text)
        lines.push("", `${message.role === "user" ? "User" : "Switchboard"}: ${message.text}`);
    }
    if (task.answer) lines.push("", `Answer: ${task.answer}`);
    if (task.state !== "completed") lines.push(`(${task.state})`);
  }
  return lines.join("\n");
}
