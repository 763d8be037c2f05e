/** The shopping service's bindings as one version's profile declares them: same endpoints in every version. */
import type { MerchantConfig } from "../config";
import { SHOPPING_SERVICE, serviceDocuments } from "./capabilities";
import { REST_PATH } from "./discovery-paths";
import type { UcpVersion } from "./versions";

export function shoppingServices(config: Pick<MerchantConfig, "origin" | "mcpEndpoint">, version: UcpVersion) {
  const docs = serviceDocuments(version);
  return {
    [SHOPPING_SERVICE]: [
      { version, spec: docs.spec, transport: "mcp", schema: docs.mcp, endpoint: config.mcpEndpoint },
      { version, spec: docs.spec, transport: "rest", schema: docs.rest, endpoint: `${config.origin}${REST_PATH}` },
    ],
  };
}
