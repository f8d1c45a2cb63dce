// What the saver reads from LangGraph's RunnableConfig, and the configs and filters it answers with.
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointMetadata } from "@langchain/langgraph-checkpoint";

export function configString(config: RunnableConfig, name: string): string | undefined {
  const value = config.configurable?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`Invalid configurable.${name}: expected a string`);
  return value;
}

export function requiredString(config: RunnableConfig, name: string): string {
  const value = configString(config, name);
  if (value === undefined) throw new Error(`Invalid configurable.${name}: expected a string`);
  return value;
}

/** The config naming one stored checkpoint. */
export function checkpointConfig(threadId: string, ns: string, checkpointId: string): RunnableConfig {
  return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId } };
}

/** list()'s metadata filter: every given key holds exactly the given value. */
export function metadataMatches(
  metadata: CheckpointMetadata | undefined,
  filter: Record<string, unknown>,
): boolean {
  return Object.entries(filter).every(
    ([key, value]) => (metadata as Record<string, unknown> | undefined)?.[key] === value,
  );
}
