/** Every catalog the store ships, by language subtag. Adding a language: a file in messages/ and a line here. */
import type { Catalog } from "./catalog";
import { de } from "./messages/de";
import { en } from "./messages/en";
import { es } from "./messages/es";
import { fr } from "./messages/fr";
import { it } from "./messages/it";
import { ja } from "./messages/ja";
import { nl } from "./messages/nl";

export const CATALOGS = { en, de, fr, es, it, nl, ja } satisfies Record<string, Catalog>;

export type Language = keyof typeof CATALOGS;
