import type { Connector } from "./connector.js";
import type { SourceOf } from "./definition.js";

export const backstage: Connector<SourceOf<"backstage">> = async ({ source }) => {
  throw new Error(`source "${source.id}": the backstage connector is not built yet`);
};
