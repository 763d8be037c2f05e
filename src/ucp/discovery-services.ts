/** The shopping service's bindings as one version's profile declares them: same endpoints in every version. */
import type { MerchantConfig } from "../config";
import { SHOPPING_SERVICE, serviceDocuments } from "./capabilities";
import { REST_PATH } from "./discovery-paths";
import { embeddedServiceBinding } from "./embedded";
import type { UcpVersion } from "./versions";

export function shoppingServices(config: Pick<MerchantConfig, "origin" | "mcpEndpoint">, version: UcpVersion) {
  const docs = serviceDocuments(version);
  return {
    [SHOPPING_SERVICE]: [
      { version, spec: docs.spec, transport: "mcp", schema: docs.mcp, endpoint: config.mcpEndpoint },
      { version, spec: docs.spec, transport: "rest", schema: docs.rest, endpoint: `${config.origin}${REST_PATH}` },
      // Embedded Checkout (ECP): loaded at each checkout's continue_url, so no endpoint.
      embeddedServiceBinding(version, docs.spec),
    ],
  };
}
