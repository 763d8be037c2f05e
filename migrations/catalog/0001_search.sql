-- Catalog search on D1 (issue 28; src/catalog/search-tables.ts). Each catalog version's
-- search tables (s_<key>_doc, _var, _cat, _fts, _vocab) are created by the load that writes
-- them, since their names carry the version; these are the store-wide ones.

-- Search tables a load wrote, and when they stopped being served (collected after a grace period).
CREATE TABLE IF NOT EXISTS search_versions (
  key TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  products INTEGER NOT NULL DEFAULT 0,
  retired_at TEXT
);

-- What the stock shards publish (as availability:<variant id> in KV): s = sold_out, restocked
-- or in_stock, v = the catalog load (stockVersion) the count is from.
CREATE TABLE IF NOT EXISTS search_live (
  variant_id TEXT PRIMARY KEY,
  s TEXT NOT NULL,
  v TEXT NOT NULL
) WITHOUT ROWID;
