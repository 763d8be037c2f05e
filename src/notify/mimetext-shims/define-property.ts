/**
 * Babel's `defineProperty` helper without its core-js polyfills (Symbol, toPrimitive):
 * mimetext's browser build is compiled for old browsers and would pull about 30 KB (gzip) of
 * them into the Worker, which has every one of these natively. wrangler.toml's [alias] puts
 * this in place of `@babel/runtime-corejs3/helpers/esm/defineProperty` (docs/email.md).
 */
export default function defineProperty<T extends object>(target: T, key: PropertyKey, value: unknown): T {
  if (key in target)
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  else (target as Record<PropertyKey, unknown>)[key] = value;
  return target;
}
