import { generateKeyPairSync } from "node:crypto";

/**
 * A fresh supervisor signing key and its public half, as the settings that carry them: give both to
 * a fleet's env (the supervisor signs with the first, every agent checks with the second).
 */
export function hopKeys(): { AUTH_HOP_SIGNING_KEY: string; AUTH_SUPERVISOR_PUBLIC_KEY: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    AUTH_HOP_SIGNING_KEY: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    AUTH_SUPERVISOR_PUBLIC_KEY: publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
}
