import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { LegacyA2AService, legacyGrpcService } from "@a2a-js/sdk/compat/v0_3/server/grpc";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import {
  type A2ARequestHandler,
  defaultServerCallContextBuilder,
  type ServerCallContextBuilder,
  UnauthenticatedUser,
  type User,
} from "@a2a-js/sdk/server";
import { A2AService, grpcService } from "@a2a-js/sdk/server/grpc";
import { type Metadata, type Server, type ServiceError, status } from "@grpc/grpc-js";
import { type AuthSettings, callerFromHeaderReader } from "../auth/bearer.js";
import { findBadParams } from "../http/request-checks.js";

/** What the gRPC binding is served from: the same request handler and rules as JSON-RPC and HTTP+JSON. */
export interface GrpcBindingDeps {
  agent: string;
  /** The agent's request handler, counted as on the other bindings. */
  requestHandler: A2ARequestHandler;
  /** Bearer-token verification (AUTH_MODE): the `authorization` metadata, as the HTTP header. */
  auth: AuthSettings;
  /** Whether push-notification webhooks may be on loopback, link-local or private networks. */
  allowPrivateWebhooks: boolean;
  /** True once the agent is draining or closed: new calls are turned away (UNAVAILABLE). */
  stopping: () => boolean;
  /** Calls being answered, each until its answer is sent: a drain waits for them. */
  answering: Set<Promise<unknown>>;
}

/** Each request's protocol JSON, for the same parameter checks the HTTP bindings make (request-checks.ts). */
const AS_JSON: Record<string, (params: never) => unknown> = {
  sendMessage: SendMessageRequest.toJSON,
  sendMessageStream: SendMessageRequest.toJSON,
  getTask: GetTaskRequest.toJSON,
  listTasks: ListTasksRequest.toJSON,
  cancelTask: CancelTaskRequest.toJSON,
  resubscribe: SubscribeToTaskRequest.toJSON,
  createTaskPushNotificationConfig: TaskPushNotificationConfig.toJSON,
  getTaskPushNotificationConfig: GetTaskPushNotificationConfigRequest.toJSON,
  listTaskPushNotificationConfigs: ListTaskPushNotificationConfigsRequest.toJSON,
  deleteTaskPushNotificationConfig: DeleteTaskPushNotificationConfigRequest.toJSON,
};

type Call = { metadata: Metadata; request?: unknown };
type Callback = (error: Partial<ServiceError> | null, value?: unknown) => void;
/** One gRPC method's handler, as grpc-js calls it (unary calls with a callback, server streams without). */
export type GrpcHandler = (call: Call, callback?: Callback) => void;
/** An agent's A2A gRPC services, each method's handler by name: protocol 1.0's and 0.3's. */
export interface A2AGrpcHandlers {
  v1: Record<string, GrpcHandler>;
  legacy: Record<string, GrpcHandler>;
}

/**
 * Adds A2A's gRPC services, protocol 1.0 and 0.3 (CAIPE's Python agents), to `server`
 * ({@link a2aGrpcHandlers}): an agent that has a gRPC port of its own.
 */
export function addA2AGrpcServices(server: Server, deps: GrpcBindingDeps): void {
  const handlers = a2aGrpcHandlers(deps);
  server.addService(A2AService, handlers.v1 as never);
  server.addService(LegacyA2AService, handlers.legacy as never);
}

/**
 * An agent's A2A gRPC handlers: the SDK's services on the agent's request handler, each call first
 * turned away while the agent stops, then its bearer token verified (UNAUTHENTICATED, before
 * anything runs), then its parameters checked as the HTTP bindings check theirs (INVALID_ARGUMENT).
 * Tasks, policies, streaming, push configs and cancellation are the request handler's, as on
 * JSON-RPC and HTTP+JSON. A host of many agents routes each call to one agent's handlers (tenant-service.ts).
 */
export function a2aGrpcHandlers(deps: GrpcBindingDeps): A2AGrpcHandlers {
  // The caller each call's token named, for the SDK's user builder (set once the call is let in).
  const callers = new WeakMap<object, User>();
  const userBuilder = async (call: object): Promise<User> => callers.get(call) ?? new UnauthenticatedUser();
  const requestHandler = checkedRequestHandler(deps.requestHandler, deps.allowPrivateWebhooks);
  /** Why a call is turned away before it runs (the agent stopping, its token), else undefined. */
  const admit = async (call: Call): Promise<Partial<ServiceError> | undefined> => {
    if (deps.stopping()) {
      return {
        code: status.UNAVAILABLE,
        details: `This ${deps.agent} agent replica is shutting down; send the request again (another replica takes it).`,
      };
    }
    if (deps.auth.mode === "none") return undefined;
    const caller = await callerFromHeaderReader(deps.auth, (name) => first(call.metadata, name));
    if (typeof caller === "string")
      return { code: status.UNAUTHENTICATED, details: `Unauthorized: ${caller}.` };
    callers.set(call, caller);
    return undefined;
  };
  const guard = (service: Record<string, GrpcHandler>): Record<string, GrpcHandler> =>
    Object.fromEntries(
      Object.entries(service).map(([method, handle]) => [
        method,
        (call: Call, callback?: Callback) => {
          const answered = (async () => {
            const refusal = await admit(call);
            if (refusal) return refuse(call, callback, refusal);
            return handle(call, callback);
          })();
          deps.answering.add(answered);
          void answered.finally(() => deps.answering.delete(answered));
        },
      ]),
    );
  return {
    v1: guard(grpcService({ requestHandler, userBuilder, contextBuilder: speaking("1.0") }) as never),
    legacy: guard(legacyGrpcService({ requestHandler, userBuilder }) as never),
  };
}

/**
 * Calls to the protocol 1.0 service speak 1.0 whether or not they send an A2A-Version header: its
 * messages are 1.0's. The SDK takes a call without the header as 0.3 (HTTP's rule), so a push config
 * set over it would be delivered in 0.3 bodies to a client that reads 1.0 ones.
 */
function speaking(version: string): ServerCallContextBuilder {
  return (options) =>
    defaultServerCallContextBuilder({ ...options, requestedVersion: options.requestedVersion ?? version });
}

/** A call's metadata value `key` (lower-case), as a header. */
export function first(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return value === undefined ? undefined : value.toString();
}

/** Answers a call with `error`, unary or streaming, before anything runs. */
export function refuse(call: Call, callback: Callback | undefined, error: Partial<ServiceError>): void {
  if (callback) {
    callback(error, null);
    return;
  }
  const stream = call as unknown as { emit(event: "error", error: unknown): void; end(): void };
  stream.emit("error", error);
  stream.end();
}

/**
 * The request handler with each request's parameters checked first, on their protocol JSON, by the
 * HTTP bindings' rules (ids that become MongoDB keys, message shapes, nesting, webhook addresses).
 */
function checkedRequestHandler(handler: A2ARequestHandler, allowPrivateWebhooks: boolean): A2ARequestHandler {
  const check = (method: string, params: unknown) => {
    const asJson = AS_JSON[method];
    if (!asJson || params === undefined) return;
    const problem = findBadParams(asJson(params as never), allowPrivateWebhooks);
    if (problem) throw new RequestMalformedError(`Invalid params: ${problem}.`);
  };
  return new Proxy(handler, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string" || !(property in AS_JSON)) return value;
      if (property === "sendMessageStream" || property === "resubscribe") {
        return async function* (params: unknown, ...rest: unknown[]) {
          check(property, params);
          yield* value.call(target, params, ...rest);
        };
      }
      return async (params: unknown, ...rest: unknown[]) => {
        check(property, params);
        return value.call(target, params, ...rest);
      };
    },
  });
}
