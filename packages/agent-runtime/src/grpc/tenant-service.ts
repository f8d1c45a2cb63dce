import { A2AService } from "@a2a-js/sdk/server/grpc";
import { type Server, type ServiceError, status } from "@grpc/grpc-js";
import type { Logger } from "@switchboard/common";
import { type A2AGrpcHandlers, first, type GrpcHandler, refuse } from "./a2a-grpc.js";

/** Why a host turns a call away before any agent sees it, and the words it answers with. */
export interface TenantRefusal {
  refused: "not-found" | "unauthenticated" | "unavailable";
  details: string;
}

/**
 * Where a call for `tenant` goes (A2A 1.0's `tenant`, on every request): to one agent's handlers,
 * or nowhere. `header` reads the call's metadata (`authorization`, …) by its lower-case name.
 */
export type TenantRoute = (
  tenant: string,
  header: (name: string) => string | undefined,
) => Promise<A2AGrpcHandlers | TenantRefusal>;

const CODES: Record<TenantRefusal["refused"], status> = {
  "not-found": status.NOT_FOUND,
  unauthenticated: status.UNAUTHENTICATED,
  unavailable: status.UNAVAILABLE,
};

/**
 * Adds A2A 1.0's gRPC service for many agents on one port: each call goes where `route` sends its
 * tenant, answered there by that agent's own handlers (its token check, parameter checks, policies).
 * Protocol 0.3's service has no tenant to route by, so a host serves 1.0 alone.
 */
export function addTenantA2AService(server: Server, route: TenantRoute, logger: Logger): void {
  const handlers: Record<string, GrpcHandler> = {};
  for (const method of Object.keys(A2AService)) {
    handlers[method] = (call, callback) => {
      const request = call.request as { tenant?: unknown } | undefined;
      const tenant = typeof request?.tenant === "string" ? request.tenant : "";
      route(tenant, (name) => first(call.metadata, name)).then(
        (target) => {
          if ("refused" in target) return refuse(call, callback, errorOf(target));
          const handle = target.v1[method];
          if (!handle) return refuse(call, callback, { code: status.UNIMPLEMENTED, details: method });
          handle(call, callback);
        },
        (error: unknown) => {
          logger.error({ err: error, method }, "a gRPC call to the host failed before reaching its agent");
          refuse(call, callback, {
            code: status.INTERNAL,
            details: "The host could not answer; its log says why.",
          });
        },
      );
    };
  }
  server.addService(A2AService, handlers as never);
}

function errorOf(refusal: TenantRefusal): Partial<ServiceError> {
  return { code: CODES[refusal.refused], details: refusal.details };
}
