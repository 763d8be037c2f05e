/** Served by test/helpers/ucp-material.plugin.ts: empty when the material is absent. */
declare module "virtual:ucp-material" {
  /** The official UCP 2026-04-08 JSON Schemas (every file under schemas/). */
  export const schemas: Array<Record<string, unknown>>;
  /** discovery/profile_schema.json, or null. */
  export const profileSchema: Record<string, unknown> | null;
  /** services/shopping/rest.openapi.json (the REST binding's OpenAPI document), or null. */
  export const openapi: Record<string, unknown> | null;
  /** The official UCP 2026-08-25 JSON Schemas (profile.json among them), or none. */
  export const currentSchemas: Array<Record<string, unknown>>;
  /** 2026-08-25 services/shopping/rest.openapi.json, or null. */
  export const currentOpenapi: Record<string, unknown> | null;
  /** Seed documents by number: `seeds["000"]`. */
  export const seeds: Record<string, string>;
}
