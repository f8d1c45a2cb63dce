import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { credentials } from "@grpc/grpc-js";

// Loaded by client.ts only for a card that prefers gRPC (browsers have none). Static imports keep
// grpc-js, CommonJS, working when the client is bundled.

/**
 * The SDK's gRPC transport (v0.3 compatibility on), over TLS when the agent's base URL is https (the
 * gRPC port sits behind the same ingress or mesh), plaintext when it is http.
 */
export function grpcTransport(baseUrl: string): GrpcTransportFactory {
  const secure = new URL(baseUrl).protocol === "https:";
  return new GrpcTransportFactory({
    legacyCompat: { enabled: true },
    grpcChannelCredentials: secure ? credentials.createSsl() : credentials.createInsecure(),
  });
}
