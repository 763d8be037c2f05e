/** The shape of a message catalog; en.ts defines the keys, every other locale may lack some (English then). */
import type { MessageKey } from "./messages/en";

/** Plural forms by Intl.PluralRules category; `other` is the one every language has. */
export interface PluralMessage {
  readonly zero?: string;
  readonly one?: string;
  readonly two?: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
}

export type Message = string | PluralMessage;

/** A translation: any subset of en's keys (the completeness test names what is missing). */
export type Catalog = { readonly [K in MessageKey]?: Message };
