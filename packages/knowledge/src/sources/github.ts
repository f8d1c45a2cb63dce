import type { Connector } from "./connector.js";
import type { SourceOf } from "./definition.js";

export const github: Connector<SourceOf<"github">> = async ({ source }) => {
  throw new Error(`source "${source.id}": the github connector is not built yet`);
};
