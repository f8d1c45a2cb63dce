import { setTimeout as sleep } from "node:timers/promises";
import type { StreamResponse, Task } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";
import { threadIdFor } from "../auth/caller.js";
import type { MongoTaskStore } from "./mongo-task-store.js";
import { turnRunning } from "./task-document.js";
import type { MongoThreadLocks } from "./thread-lock.js";

export interface TaskFollowerDeps {
  tasks: MongoTaskStore;
  locks: MongoThreadLocks;
  /** THREAD_LEASE_SECONDS: a running task unchanged this long, with no lease on its thread, is dead. */
  leaseMs: number;
  /** How often MongoDB is read while following (default 200 ms). */
  pollMs?: number;
}

/** A task as MongoDB holds it, with its revision (MongoTaskStore.readStored). */
type StoredTask = NonNullable<Awaited<ReturnType<MongoTaskStore["readStored"]>>>;

/** Why a follower fails a task nobody runs any more. */
export const ABANDONED_REASON =
  "The agent replica running this task stopped before it finished; send the message again.";

/**
 * Follows a task another replica runs, through MongoDB: the task as stored now, then each stored
 * change of it, until its turn ends (finished, or waiting for the user), as the SDK's resubscribe
 * does from process memory on the replica running it. Progress arrives as that replica writes it
 * (at most PROGRESS_WRITE_MS late). If that replica dies, the task's thread lease runs out (or none
 * is taken while the task sits unchanged for a lease period): the task is failed, conditionally on
 * nobody having written it meanwhile, and the subscriber sees it end instead of waiting forever.
 */
export async function* followStoredTask(
  deps: TaskFollowerDeps,
  first: StoredTask,
  context: ServerCallContext,
): AsyncGenerator<StreamResponse> {
  const pollMs = deps.pollMs ?? 200;
  const taskId = first.task.id;
  let seen = first;
  yield { payload: { $case: "task", value: seen.task } };
  let changedAt = Date.now();
  while (turnRunning(seen.state)) {
    await sleep(pollMs);
    const now = await deps.tasks.readStored(taskId, context);
    if (!now) return; // deleted with its conversation
    if (now.rev !== seen.rev) {
      seen = now;
      changedAt = Date.now();
      yield { payload: { $case: "task", value: now.task } };
      continue;
    }
    const failed = await failIfAbandoned(deps, now, context, changedAt);
    if (failed) {
      yield { payload: { $case: "task", value: failed } };
      return;
    }
  }
}

/**
 * Fails a running task whose replica died: its thread's lease ran out, or there is none and the task
 * has not changed for a lease period since `changedAt`. Undefined when it is alive (or changed).
 */
export async function failIfAbandoned(
  deps: TaskFollowerDeps,
  stored: StoredTask,
  context: ServerCallContext,
  changedAt: number,
): Promise<Task | undefined> {
  if (!turnRunning(stored.state)) return undefined;
  const expiry = await deps.locks.leaseExpiry(threadIdFor(stored.task.contextId, context.user));
  const abandoned = expiry ? expiry.getTime() < Date.now() : Date.now() - changedAt > deps.leaseMs;
  if (!abandoned) return undefined;
  return deps.tasks.failAbandoned(stored.task.id, context, stored.rev, ABANDONED_REASON);
}
