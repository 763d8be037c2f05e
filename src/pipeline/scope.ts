/** What one HTTP request brings to every method it calls: settings, caller, clock. */
import type { Principal } from "../auth/authenticate";
import type { TrustConfig } from "../auth/trust-config";
import type { MerchantConfig } from "../config";

export interface RequestScope {
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly trust: TrustConfig;
  /** Who is calling, as authenticated before dispatch (src/auth/authenticate.ts). */
  readonly principal: Principal;
  readonly headers: Headers;
  readonly now: number;
}
