/** Where a browser walk ended: the first page that is neither a redirect nor the provider's form. */
export interface BrowsedPage {
  url: string;
  status: number;
  text: string;
}

/**
 * Opens `start` as a browser would and walks on, without one: redirects followed, cookies kept per
 * origin, and the identity provider's development login (as `subject`, any password) and consent
 * forms submitted, until a page that is neither. For sign-ins that start and end at another
 * service (the Slack relay's account link), where signIn() starts at the provider.
 */
export async function browse(start: string, subject: string): Promise<BrowsedPage> {
  const jars = new Map<string, Map<string, string>>();
  let url = start;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const origin = new URL(url).origin;
    const jar = jars.get(origin) ?? new Map<string, string>();
    jars.set(origin, jar);
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
      ...(body ? { body } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location && response.status >= 300 && response.status < 400) {
      url = new URL(location, url).toString();
      body = undefined;
      continue;
    }
    const text = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(text)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(text)?.[1];
    if (!action || !prompt) return { url, status: response.status, text };
    url = new URL(action, url).toString();
    body = new URLSearchParams(prompt === "login" ? { prompt, login: subject, password: "any" } : { prompt });
  }
  throw new Error(`The walk from ${start} did not end within 20 steps.`);
}
