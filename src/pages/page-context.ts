/**
 * What every page handler gets, as types only: the console's context (admin/console/types.ts)
 * builds on it, and the scripts' typecheck (bench/console-weight.ts) reaches it without
 * pulling in the buyer pages' tools.
 */
import type { MerchantConfig } from "../config";
import type { CsrfState } from "./csrf";

export interface CartBadge {
  /** The cart's page, /cart/<token>. */
  readonly href: string;
  /** Units across lines (2 mugs and a shirt: 3). */
  readonly count: number;
}

export interface PageContext {
  readonly request: Request;
  readonly url: URL;
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly now: number;
  /** Authorizes this response's inline style and script (respond.ts CSP). */
  readonly nonce: string;
  readonly csrf: CsrfState;
  /** The cart in the buyer's cookie, for the header's cart link (GET pages only). */
  readonly cart?: CartBadge;
}
