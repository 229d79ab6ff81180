// Card codes (docs/rules.md D-3): a rank of "3456789TJQKA2" then a suit of "SHCD", or a joker:
// "SJ" (小王), "BJ" (大王), and the marked "BJ*" (皇牌, the scepter) and "SJ*" (the sword). Suits
// never decide which play beats which (D-2); the page sorts by rank, then suit, to group a hand.

import { h } from "./dom.js";
import { lang, suitName, t } from "./i18n.js";

const RANKS = "3456789TJQKA2";
const SUIT_ORDER = "SHCD";
const SYMBOLS = { S: "♠", H: "♥", C: "♣", D: "♦" };

/** Rank order of a card: 0 for a 3 … 12 for a 2, 13 for a small joker, 14 for a big one. */
export function rankOf(code) {
  if (code.startsWith("SJ")) return 13;
  if (code.startsWith("BJ")) return 14;
  return RANKS.indexOf(code[0]);
}

/** A joker's code without its mark: what a call names and what a combo counts. */
export const unmarked = (code) => code.replace("*", "");

function order(a, b) {
  return rankOf(a) - rankOf(b) || SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || a.localeCompare(b);
}

/** The cards low to high, each with a key "code#n" (its n-th copy) that stays put as long as
 *  the hand holds it: selections are kept by key. */
export function keyed(codes) {
  const seen = {};
  return [...codes].sort(order).map((code) => {
    seen[code] = (seen[code] ?? 0) + 1;
    return { code, key: `${code}#${seen[code]}` };
  });
}

/** The keyed cards in groups of one rank each, low to high. */
export function byRank(cards) {
  const groups = [];
  for (const card of cards) {
    const last = groups.at(-1);
    if (last && rankOf(last[0].code) === rankOf(card.code)) last.push(card);
    else groups.push([card]);
  }
  return groups;
}

/** How many of each code: {"7S": 2, "BJ": 1, …}. */
export function counts(codes) {
  const found = {};
  for (const code of codes) found[code] = (found[code] ?? 0) + 1;
  return found;
}

function face(code) {
  if (rankOf(code) >= 13) {
    const big = code[0] === "B";
    const mark = code.endsWith("*") ? (big ? "★" : "⚔") : "";
    if (lang() === "zh")
      return { rank: big ? "大" : "小", suit: "王", mark, red: big, name: `${big ? "大" : "小"}王${mark}` };
    return {
      rank: big ? "BJ" : "SJ",
      suit: mark, // the code alone names a plain joker
      red: big,
      name: `${big ? "big" : "small"} joker${mark ? " (marked)" : ""}`,
    };
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const name = lang() === "zh" ? `${suitName(suit)}${rank}` : `${rank} ${suitName(suit)}`;
  return { rank, suit: SYMBOLS[suit], red: suit === "H" || suit === "D", name };
}

/** Cards as a screen reader says them, high to low: "9 spades, 9 hearts" / "黑桃9、红桃9". */
export function spokenCards(codes) {
  return [...codes]
    .sort(order)
    .reverse()
    .map((code) => face(code).name)
    .join(t("and"));
}

/** One card as an element. `data-card` holds its code: the tests read the page's cards by it.
 *  A card of the own hand is a toggle button (Enter and Space press it); others are spans. */
export function cardElement(code, { button = false, selected = false, key = null, small = false } = {}) {
  const f = face(code);
  const className = `card${f.red ? " red" : ""}${small ? " small" : ""}`;
  // a joker's mark (★ the scepter, ⚔ the sword) is drawn small beside its 王: the corner a
  // fanned card shows stays as narrow as a "10"
  const suit = f.mark ? [f.suit, h("small", { class: "joker-mark" }, f.mark)] : f.suit;
  const parts = [h("span", { class: "rank" }, f.rank), h("span", { class: "suit" }, suit)];
  if (!button) return h("span", { class: className, "data-card": code, title: f.name }, ...parts);
  return h(
    "button",
    {
      type: "button",
      class: className,
      "data-card": code,
      "data-key": key,
      "data-focus": `card:${key}`,
      "aria-pressed": String(selected),
      "aria-label": f.name,
    },
    ...parts,
  );
}

/** A row of cards, high to low as a play is usually read. */
export function cardRow(codes, options = {}) {
  return h(
    "span",
    { class: "cards" },
    ...[...codes]
      .sort(order)
      .reverse()
      .map((c) => cardElement(c, options)),
  );
}
