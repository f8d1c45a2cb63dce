import { describe, expect, it } from "vitest";
import type { TaskDefinition } from "./config.js";
import { type ClientCredentials, Principals, principalsFor, type ServiceClient } from "./service-token.js";

const task = (id: string, client?: ClientCredentials) => ({ id, client }) as TaskDefinition;
const own = (id: string): ClientCredentials => ({ id, secret: `${id}-secret`, settings: `${id} vars` });
const endpoint = { tokenUrl: "http://127.0.0.1:1/token", scope: undefined, resource: undefined };
const service: ServiceClient = { ...endpoint, client: own("triggers") };

describe("principalsFor", () => {
  it("gives each task its own client, else the service's", () => {
    const principals = principalsFor(service, [task("a", own("triggers-a")), task("b")]);
    expect(principals).toBeInstanceOf(Principals);
  });

  it("under AUTH_MODE=jwt without the service's client, every task must name its own", () => {
    expect(() => principalsFor({ ...endpoint, client: undefined }, [task("a", own("x"))])).not.toThrow();
    expect(() =>
      principalsFor({ ...endpoint, client: undefined }, [task("a", own("x")), task("b"), task("c")]),
    ).toThrow(
      /^AUTH_MODE=jwt: tasks "b", "c" each name no client of its own, so its runs act as the service's client: set DYNAMIC_AGENTS_OAUTH2_CLIENT_ID and DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET/,
    );
  });

  it("under AUTH_MODE=none a task meant to be limited to its own client stops the service", () => {
    expect(principalsFor(undefined, [task("a")])).toBeUndefined();
    expect(() => principalsFor(undefined, [task("a"), task("b", own("x"))])).toThrow(
      /task "b" names a client of its own \(trigger.client_id_env\), which counts only under AUTH_MODE=jwt/,
    );
  });
});
