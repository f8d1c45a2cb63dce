import type { JsonTask, TaskDocument } from "./task-document.js";

/** One version of a task: its protocol JSON and its state. */
export interface TaskVersion {
  json: JsonTask;
  state: number;
}

/**
 * This process's version of a task after someone else wrote it meanwhile (`current`), when this
 * process last saw it in state `believed`: their changes merged in ({@link mergedTask}), and the
 * state theirs unless ours changes it.
 */
export function mergeWritten(
  ours: TaskVersion,
  current: TaskDocument,
  believed: number | undefined,
): TaskVersion {
  const changesState = ours.state !== believed;
  return {
    json: mergedTask(ours.json, current.task as JsonTask, changesState),
    state: changesState ? ours.state : current.state,
  };
}

/**
 * This process's version of a task merged into one written meanwhile by someone else: theirs
 * plus the messages and artifacts only ours has (ours win for the same artifact). The status is
 * ours only when ours changes the state: progress held back here never undoes a change of state
 * made elsewhere meanwhile.
 */
export function mergedTask(ours: JsonTask, theirs: JsonTask, oursChangesState: boolean): JsonTask {
  const theirMessages = new Set((theirs.history ?? []).map((message) => message.messageId));
  const ourArtifacts = new Map((ours.artifacts ?? []).map((artifact) => [artifact.artifactId, artifact]));
  const theirArtifacts = new Set((theirs.artifacts ?? []).map((artifact) => artifact.artifactId));
  return {
    ...ours,
    status: oursChangesState ? ours.status : theirs.status,
    history: [
      ...(theirs.history ?? []),
      ...(ours.history ?? []).filter((message) => !theirMessages.has(message.messageId)),
    ],
    artifacts: [
      ...(theirs.artifacts ?? []).map((artifact) => ourArtifacts.get(artifact.artifactId) ?? artifact),
      ...(ours.artifacts ?? []).filter((artifact) => !theirArtifacts.has(artifact.artifactId)),
    ],
    metadata: { ...theirs.metadata, ...ours.metadata },
  };
}
