import type { Logger } from "@switchboard/common";
import { Cron } from "croner";
import type { ScheduleSettings, TaskDefinition } from "./config.js";

/** A tick of a schedule: the instant it was due, and what its prompt template can look up. */
export interface Tick {
  /** The due instant, the same on every replica: with the task's id, the key that makes it fire once. */
  at: Date;
  payload: { tick: string; schedule: string; timezone: string };
}

/**
 * Arms every enabled cron task on this replica: at each due instant `fire` is called with it. Every
 * replica arms the same ticks; `fire` claims the tick, so only one of them runs it. croner reads the
 * expression in the task's zone; the timer is ours, so the key is the due instant, not when a busy
 * event loop got to it.
 */
export function armSchedules(
  tasks: Iterable<TaskDefinition>,
  fire: (task: TaskDefinition, tick: Tick) => Promise<void>,
  logger: Logger,
): { stop(): void } {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const arm = (task: TaskDefinition, trigger: ScheduleSettings, cron: Cron, after?: Date) => {
    const next = cron.nextRun(after ?? new Date());
    if (!next || stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        // The next tick is armed first, from this one's due instant, so a slow claim cannot skip one.
        arm(task, trigger, cron, next);
        const payload = { tick: next.toISOString(), schedule: trigger.schedule, timezone: trigger.timezone };
        fire(task, { at: next, payload }).catch((error: unknown) =>
          logger.error({ err: error, task: task.id }, "A scheduled tick could not be claimed"),
        );
      },
      Math.max(0, next.getTime() - Date.now()),
    );
    timers.add(timer);
  };
  for (const task of tasks) {
    if (!task.enabled || task.trigger.kind !== "cron") continue;
    const cron = new Cron(task.trigger.schedule, { timezone: task.trigger.timezone, paused: true });
    arm(task, task.trigger, cron);
  }
  return {
    stop: () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
