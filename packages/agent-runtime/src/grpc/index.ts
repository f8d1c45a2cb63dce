// A2A over gRPC for a process that serves many agents on one port (the dynamic-agents host):
// loaded only by such a process, since it loads grpc-js.
export type { A2AGrpcHandlers } from "./a2a-grpc.js";
export { grpcAddress } from "./address.js";
export { type GrpcListener, listenGrpc } from "./listener.js";
export { addTenantA2AService, type TenantRefusal, type TenantRoute } from "./tenant-service.js";
