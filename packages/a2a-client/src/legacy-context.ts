const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The conversation id an A2A 0.3 agent gets. CAIPE's Python agents (a2a-sdk 0.3) refuse a context id
 * that is not a UUID ("Invalid context_id … is not a valid UUID"), so a UUID goes verbatim and any other
 * id becomes a name-based UUID (version 8 layout): the same conversation always maps to the same UUID,
 * so the agent keeps one thread for it across turns. Synchronous and without node:crypto, since the
 * web chat runs this client in the page; the hash is no secret (threads are bound to the caller).
 */
export function legacyContextId(contextId: string): string {
  if (UUID.test(contextId)) return contextId;
  const words = hash128(`switchboard-context:${contextId}`);
  const hex = words.map((word) => (word >>> 0).toString(16).padStart(8, "0")).join("");
  const version = `8${hex.slice(13, 16)}`;
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}-${variant}-${hex.slice(20, 32)}`;
}

/** cyrb128: four mixed 32-bit lanes over the UTF-16 code units, a stable 128-bit string hash. */
function hash128(text: string): number[] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1, h2, h3, h4];
}
