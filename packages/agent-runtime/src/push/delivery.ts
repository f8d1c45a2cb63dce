import { type StreamResponse, type Task, type TaskPushNotificationConfig, TaskState } from "@a2a-js/sdk";
import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import {
  type PushNotificationSender,
  type PushNotificationSerializer,
  type ServerCallContext,
  type StoredPushNotificationConfig,
  V1PushNotificationSerializer,
} from "@a2a-js/sdk/server";
import type { Logger } from "@switchboard/common";
import pRetry, { AbortError } from "p-retry";
import type { Agent } from "undici";
import { undici } from "../network/undici.js";
import type { DeliveredUpdate } from "./store.js";
import { badWebhookUrl, PRIVATE_WEBHOOK, webhookConnector, webhookLabel } from "./webhook-guard.js";

export interface PushDeliveryOptions {
  /** Where the configs are: the SDK's store API, with the version each was registered over. */
  store: {
    loadWithMetadata(
      taskId: string,
      context: ServerCallContext,
      update?: DeliveredUpdate,
    ): Promise<StoredPushNotificationConfig[]>;
  };
  /** PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS */
  allowPrivate: boolean;
  logger: Logger;
  /** Tries per notification (default 5), the first wait between them (default 500 ms, doubling). */
  attempts?: number;
  firstRetryMs?: number;
  /** How long one try may take (default 10 s). */
  timeoutMs?: number;
}

/** The legacy header for a config's `token` (when it names no `authentication`), as the SDK sends it. */
const TOKEN_HEADER = "X-A2A-Notification-Token";
const MAX_RETRY_MS = 30_000;

/**
 * Delivers a task's updates to the webhooks its caller registered: each update POSTed in the body
 * of the protocol version the webhook was registered over, in order per task, with the
 * authentication the config names (`Authorization: <scheme> <credentials>`, else the token header).
 * A webhook that fails (network error, timeout, 408, 429, 5xx) is tried again with exponential
 * backoff; other answers are final. A redirect (3xx) is a failed delivery, never followed: the
 * webhook's answer cannot send the update and its credentials elsewhere. Only public addresses are
 * reached unless allowed: the URL is checked before each try, and the address each connection goes
 * to when it connects (see webhookConnector).
 */
export class PushDelivery implements PushNotificationSender {
  private readonly serializers: Record<string, PushNotificationSerializer> = {
    "1.0": new V1PushNotificationSerializer(),
    "0.3": new V03PushNotificationSerializer(),
  };
  private readonly chains = new Map<string, Promise<void>>();
  /** Made for the first delivery (most agents never deliver one, and undici loads with it). */
  private dispatcher: Agent | undefined;

  constructor(private readonly options: PushDeliveryOptions) {}

  private connections(): Agent {
    this.dispatcher ??= new (undici().Agent)(
      this.options.allowPrivate ? {} : { connect: webhookConnector() },
    );
    return this.dispatcher;
  }

  async send(streamResponse: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(streamResponse);
    if (!taskId) return;
    const configs = await this.options.store.loadWithMetadata(taskId, context, {
      progress: isProgress(streamResponse),
    });
    if (configs.length === 0) return;
    const previous = this.chains.get(taskId) ?? Promise.resolve();
    const next = previous.then(async () => {
      await Promise.all(configs.map((stored) => this.deliver(streamResponse, stored, taskId, task)));
    });
    this.chains.set(taskId, next);
    try {
      await next;
    } finally {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.chains.values());
    await this.dispatcher?.close();
  }

  private async deliver(
    update: StreamResponse,
    { config, wireVersion }: StoredPushNotificationConfig,
    taskId: string,
    task: Task | undefined,
  ): Promise<void> {
    const serializer =
      this.serializers[wireVersion] ?? (this.serializers["1.0"] as PushNotificationSerializer);
    const { body, contentType } = serializer.serialize(update, task);
    const webhook = webhookLabel(config.url);
    const { attempts = 5, firstRetryMs = 500, timeoutMs = 10_000, logger } = this.options;
    try {
      await pRetry(
        async () => {
          const problem = badWebhookUrl(config.url, this.options.allowPrivate);
          if (problem) throw new AbortError(problem);
          const response = await undici()
            .fetch(config.url, {
              method: "POST",
              headers: { "content-type": contentType, ...authHeaders(config) },
              body,
              redirect: "manual",
              dispatcher: this.connections(),
              signal: AbortSignal.timeout(timeoutMs),
            })
            .catch((error: unknown) => {
              if (causeCode(error) === PRIVATE_WEBHOOK) throw new AbortError(causeMessage(error));
              throw error;
            });
          await response.body?.cancel();
          if (response.ok) return;
          if (response.status >= 300 && response.status < 400)
            throw new AbortError(
              `the webhook answered HTTP ${response.status} (a redirect): not followed, the webhook's URL must take the POST itself`,
            );
          const failure = `the webhook answered HTTP ${response.status}`;
          if (response.status === 408 || response.status === 429 || response.status >= 500)
            throw new Error(failure);
          throw new AbortError(failure);
        },
        {
          retries: attempts - 1,
          minTimeout: firstRetryMs,
          maxTimeout: MAX_RETRY_MS,
          onFailedAttempt: (error) => {
            if (error.retriesLeft > 0)
              logger.debug(
                { task: taskId, webhook, attempt: error.attemptNumber },
                "push notification failed; retrying",
              );
          },
        },
      );
      logger.debug({ task: taskId, webhook }, "push notification delivered");
    } catch (error) {
      logger.warn(
        { task: taskId, webhook, reason: causeMessage(error) },
        "could not deliver a push notification; the client can still read the task (tasks/get)",
      );
    }
  }
}

function taskIdOf(update: StreamResponse): string | undefined {
  const payload = update.payload;
  if (!payload) return undefined;
  return payload.$case === "task" ? payload.value.id : payload.value.taskId || undefined;
}

/** Progress within the task's state: answer text, or a working status (the turn runs, a tool is called). */
function isProgress(update: StreamResponse): boolean {
  const payload = update.payload;
  if (payload?.$case === "artifactUpdate") return true;
  return payload?.$case === "statusUpdate" && payload.value.status?.state === TaskState.TASK_STATE_WORKING;
}

function authHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  const { authentication, token } = config;
  if (authentication?.scheme && authentication.credentials)
    return { authorization: `${authentication.scheme} ${authentication.credentials}` };
  return token ? { [TOKEN_HEADER]: token } : {};
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** The most specific message: undici's "fetch failed" hides its cause. */
function causeMessage(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
