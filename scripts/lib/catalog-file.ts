/** The catalog's validation lives in src/catalog/merchant-catalog.ts (the console's upload uses it too). */
export {
  type CatalogProblem,
  CatalogValidator,
  jsonProducts,
  jsonWhere,
  type KvPair,
  kvEntries,
  type ProductProblem,
  servedProduct,
  type ValidCatalog,
  validateCatalog,
} from "../../src/catalog/merchant-catalog";
