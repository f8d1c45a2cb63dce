/** Where this server offers the supervisor's A2A endpoints to the page. */
export const A2A_PATH = "/a2a";

/**
 * The supervisor's agent card as the page must see it: every interface URL moved from the
 * supervisor's own address (which the browser may not reach, and which would be cross-origin) to
 * this server's `/a2a`, keeping the path below the supervisor's base. Works on both card versions
 * (v1 `supportedInterfaces[].url`, v0.3 `url` and `additionalInterfaces[].url`).
 */
export function cardForPage(card: unknown, origin: string): unknown {
  const base = basePath(card);
  const rebase = (value: string): string => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return value;
    }
    const below = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
    return `${origin}${A2A_PATH}${below.startsWith("/") ? below : `/${below}`}${url.search}`;
  };
  const { url, supportedInterfaces, additionalInterfaces } = card as CardUrls;
  const moved = (list: Array<{ url?: string }> | undefined) =>
    list?.map((entry) => (typeof entry.url === "string" ? { ...entry, url: rebase(entry.url) } : entry));
  return {
    ...(card as object),
    ...(typeof url === "string" ? { url: rebase(url) } : {}),
    ...(supportedInterfaces ? { supportedInterfaces: moved(supportedInterfaces) } : {}),
    ...(additionalInterfaces ? { additionalInterfaces: moved(additionalInterfaces) } : {}),
  };
}

/** Where the card versions keep their endpoints: v1 in `supportedInterfaces`, v0.3 in `url` and `additionalInterfaces`. */
interface CardUrls {
  url?: string;
  supportedInterfaces?: Array<{ url?: string; protocolBinding?: string }>;
  additionalInterfaces?: Array<{ url?: string }>;
}

/** The supervisor's base path: that of its JSON-RPC endpoint (the runtime serves JSON-RPC at its root). */
function basePath(card: unknown): string {
  const { url, supportedInterfaces } = card as CardUrls;
  const jsonRpc = supportedInterfaces?.find((entry) => entry.protocolBinding === "JSONRPC")?.url ?? url;
  try {
    return new URL(jsonRpc ?? "").pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}
