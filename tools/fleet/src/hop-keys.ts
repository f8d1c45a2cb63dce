import { generateKeyPairSync } from "node:crypto";

/**
 * The local fleet's env with a hop key pair when AUTH_MODE=jwt and neither half is set: the
 * supervisor signs each subagent's own token with AUTH_HOP_SIGNING_KEY and every agent checks it with
 * AUTH_SUPERVISOR_PUBLIC_KEY. All of them run here, so a pair made for this run is all they need (a
 * deployment sets its own). One half set alone is left as it is: the start then names what is missing.
 */
export function withHopKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (
    env.AUTH_MODE?.trim() !== "jwt" ||
    env.AUTH_HOP_SIGNING_KEY?.trim() ||
    env.AUTH_SUPERVISOR_PUBLIC_KEY?.trim()
  )
    return env;
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    ...env,
    AUTH_HOP_SIGNING_KEY: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    AUTH_SUPERVISOR_PUBLIC_KEY: publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
}
