/** A tool's message on a buyer page: the outcomes the page can name, in the store's language; the tool's words otherwise. */
import { describe, expect, it } from "vitest";
import { translatorFor } from "../../src/i18n/translate";
import { messageText } from "../../src/pages/tool-messages";

const lines = [
  { item: { title: "Runner Pro - Blue / Size 10" }, quantity: 1 },
  { item: { title: "Trail Sock" }, quantity: 3 },
];

describe("messageText", () => {
  it("says quantity_adjusted for the line its path names, in German with the line's new quantity", () => {
    const message = {
      code: "quantity_adjusted",
      path: "$.line_items[1].quantity",
      content: "Only 3 of Trail Sock available",
    };
    expect(messageText(translatorFor("de-DE"), message, lines)).toBe(
      "Von Trail Sock sind nur 3 Stück bestellbar; die Menge ist jetzt 3.",
    );
    expect(messageText(translatorFor("en-US"), message, lines)).toBe(
      "Only 3 of Trail Sock can be ordered; the quantity is now 3.",
    );
  });

  it("names an out-of-stock line; without a line it shows the tool's words", () => {
    expect(messageText(translatorFor("fr-FR"), { code: "out_of_stock", path: "$.line_items[0]" }, lines)).toBe(
      "Runner Pro - Blue / Size 10 est en rupture de stock.",
    );
    expect(
      messageText(
        translatorFor("de-DE"),
        { code: "out_of_stock", path: "$.line_items[7]", content: "X is out of stock" },
        lines,
      ),
    ).toBe("X is out of stock");
    expect(
      messageText(translatorFor("de-DE"), { code: "discount_code_invalid", content: "Code SAVE is not valid" }),
    ).toBe("Code SAVE is not valid");
    expect(messageText(translatorFor("ja-JP"), { code: "test_mode", content: "This store is in test mode" })).toContain(
      "テストモード",
    );
  });
});
