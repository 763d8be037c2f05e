/** 2026-04-08: the model's own shapes, so its wire is the identity. */
import { ok } from "../../lib/result";
import { LEGACY_VERSION } from "../versions";
import type { WireVersion } from "./index";

export const legacy: WireVersion = {
  version: LEGACY_VERSION,
  request: (_tool, args) => ok(args),
  response: (_tool, payload) => payload,
};
