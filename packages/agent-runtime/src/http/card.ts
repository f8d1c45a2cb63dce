import type { AgentCard } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import type { AgentDefinition } from "../definition.js";

/** Where the A2A bindings are mounted, relative to the agent's public URL. */
export const JSONRPC_PATH = "/";
export const REST_PATH = "/rest";

/**
 * An A2A extension (requested in the A2A-Extensions header) for clients that read a turn's final
 * answer, not its tokens as they stream: the supervisor relays its subagents' progress but writes
 * the answer itself. The agent then does not ask its model for a token stream; every status update
 * and the answer artifact come as always.
 */
export const ANSWER_WITHOUT_TOKENS_EXTENSION = "urn:switchboard:a2a:answer-without-tokens:v1";

/**
 * Where an agent answers A2A over gRPC: the `host:port` clients dial, and its tenant there (A2A 1.0's
 * routing field; "" for an agent with a port of its own, its id on a host that serves many).
 */
export interface GrpcInterface {
  address: string;
  tenant: string;
}

/**
 * The agent card. Every URL is the public URL (AGENT_PUBLIC_URL), never the bind address; the
 * interfaces are declared for protocol 1.0 and again for 0.3, which CAIPE's Python agents speak.
 */
export function buildAgentCard(
  definition: AgentDefinition,
  publicUrl: string,
  options: { bearerAuth?: boolean; grpc?: GrpcInterface } = {},
): AgentCard {
  const base = publicUrl.replace(/\/+$/, "");
  // gRPC's address is host:port (the gRPC target form), served beside the HTTP ones (serve.ts).
  const grpc = options.grpc
    ? [
        {
          url: options.grpc.address,
          protocolBinding: "GRPC",
          tenant: options.grpc.tenant,
          protocolVersion: "1.0",
        },
      ]
    : [];
  // Protocol 0.3's gRPC has no tenant: an agent that shares its gRPC port (a tenant) is not offered in 0.3 there.
  const legacyGrpc = options.grpc?.tenant ? [] : ["GRPC"];
  return {
    name: definition.name,
    description: `${definition.title}: ${definition.description}`,
    version: definition.version ?? "0.1.0",
    provider: undefined,
    supportedInterfaces: duplicateInterfacesForLegacy(
      [
        { url: `${base}${JSONRPC_PATH}`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
        { url: `${base}${REST_PATH}`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
        ...grpc,
      ],
      ["JSONRPC", "HTTP+JSON", ...legacyGrpc],
    ),
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [
        {
          uri: ANSWER_WITHOUT_TOKENS_EXTENSION,
          description: "Streams status updates and the final answer, without the answer's tokens.",
          required: false,
          params: undefined,
        },
      ],
      extendedAgentCard: false,
    },
    securitySchemes: options.bearerAuth
      ? {
          bearer: {
            scheme: {
              $case: "httpAuthSecurityScheme",
              value: {
                scheme: "Bearer",
                bearerFormat: "JWT",
                description: "A JWT from your identity provider",
              },
            },
          },
        }
      : {},
    securityRequirements: options.bearerAuth ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: definition.skills.map((skill) => ({
      ...skill,
      inputModes: ["text/plain"],
      outputModes: ["text/plain"],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
