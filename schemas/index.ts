export * from "./ucp/catalog";
export * from "./ucp/common";
export * from "./ucp/meta";
export * from "./ucp/product";
