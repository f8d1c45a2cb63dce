import type {
  AgentCard,
  GetTaskRequest,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from "@a2a-js/sdk";
import {
  type AgentExecutor,
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { markBlockingSend } from "../context/blocking-send.js";
import { withCaipeContextId } from "./caipe-context.js";
import { turnRunning } from "./task-document.js";
import { failIfAbandoned, followStoredTask, type TaskFollowerDeps } from "./task-follower.js";

export interface RequestHandlerDeps {
  card: AgentCard;
  tasks: TaskStore;
  executor: AgentExecutor;
  pushConfigs: PushNotificationStore;
  pushDelivery: PushNotificationSender;
  /** With MongoDB: how a replica that does not run a task follows it for a subscriber. */
  follower?: TaskFollowerDeps;
}

/**
 * The SDK's request handler, noting which calls are blocking sends: their caller reads only the
 * final task, so the executor does not ask the model for a token stream nobody receives (the
 * stored task and the answer are the same either way). A subscription to a task another replica
 * runs follows it through MongoDB ({@link followStoredTask}) instead of ending at once.
 */
export class AgentRequestHandler extends DefaultRequestHandler {
  private readonly buses: DefaultExecutionEventBusManager;
  private readonly follower: TaskFollowerDeps | undefined;

  constructor(deps: RequestHandlerDeps) {
    const buses = new DefaultExecutionEventBusManager();
    super(deps.card, deps.tasks, deps.executor, buses, deps.pushConfigs, deps.pushDelivery);
    this.buses = buses;
    this.follower = deps.follower;
  }

  /**
   * A running task no replica runs any more (see {@link failIfAbandoned}) is read as failed, so a
   * client polling tasks/get after a crash sees it end too.
   */
  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await super.getTask(params, context);
    const { follower } = this;
    if (!follower || !turnRunning(task.status?.state ?? 0) || this.buses.getByTaskId(task.id, context))
      return task;
    const stored = await follower.tasks.readStored(task.id, context);
    const changedAt = Date.parse(stored?.task.status?.timestamp ?? "") || Date.now();
    const failed = stored && (await failIfAbandoned(follower, stored, context, changedAt));
    return failed ? await super.getTask(params, context) : task;
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { follower } = this;
    if (follower && !this.buses.getByTaskId(params.id, context)) {
      const stored = await follower.tasks.readStored(params.id, context);
      if (stored && turnRunning(stored.state)) {
        yield* followStoredTask(follower, stored, context);
        return;
      }
    }
    yield* super.resubscribe(params, context);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (context && params.configuration?.returnImmediately !== true) markBlockingSend(context);
    return super.sendMessage(withCaipeContextId(params), context);
  }

  override sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return super.sendMessageStream(withCaipeContextId(params), context);
  }
}
