import type { Connector } from "./connector.js";
import type { SourceOf } from "./definition.js";

export const web: Connector<SourceOf<"web">> = async ({ source }) => {
  throw new Error(`source "${source.id}": the web connector is not built yet`);
};
