/**
 * 2026-08-25 (spec-digest-2026-08-25 §1.7, the render-by-version matrix): requests are read
 * into the model, and the model's payloads are rewritten into this version's shapes.
 */
import { RawJson } from "../../lib/raw-json";
import { ok } from "../../lib/result";
import { CURRENT_VERSION } from "../versions";
import type { WirePayload, WireVersion } from "./index";

type Json = Record<string, unknown>;

/** Per tool: how the model's payload (parsed) becomes this version's. Unlisted tools pass as they are. */
const RESPONSES: Readonly<Record<string, (payload: Json) => Json>> = {};

export const current: WireVersion = {
  version: CURRENT_VERSION,
  request: (_tool, args) => ok(args),
  response(tool, payload) {
    const rewrite = RESPONSES[tool];
    if (!rewrite) return payload;
    const value = payload instanceof RawJson ? (JSON.parse(payload.text) as Json) : { ...payload };
    return rewrite(value);
  },
};

export type { WirePayload };
