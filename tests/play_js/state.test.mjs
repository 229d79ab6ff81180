// The page's state module in node (no browser): what each event does to the picture of the
// table, how the log is folded, and the replay's tricks (a deal's steps: record.test.mjs). Run: node --test tests/play_js/
// (tests/http/test_play_state_js.py runs it in the quick suite).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { spokenCards } from "../../service/baohuang/play/static/cards.js";
import { allStrings, lang, reasonText, setLang, t } from "../../service/baohuang/play/static/i18n.js";
import {
  announcement,
  emptyState,
  logLine,
  note,
  trickOf,
  trickStep,
} from "../../service/baohuang/play/static/state.js";
import { recordSteps } from "../../service/baohuang/play/static/record.js";

const played = (seq, seat, cards) => ({ type: "played", seq, seat, cards });
const passed = (seq, seat) => ({ type: "passed", seq, seat });

test("a play joins the trick; after a won trick the next play starts a new one", () => {
  const state = emptyState();
  note(state, played(1, 0, ["3S"]));
  note(state, played(2, 1, ["4S"]));
  assert.deepEqual(state.trick, { plays: { 0: ["3S"], 1: ["4S"] }, over: false });
  note(state, { type: "trick_won", seq: 3, seat: 1, lead: 1 });
  assert.equal(state.trick.over, true);
  note(state, played(4, 1, ["5S"]));
  assert.deepEqual(state.trick, { plays: { 1: ["5S"] }, over: false });
});

test("the log folds: a clock event is no line, a run of passes is one", () => {
  const state = emptyState();
  note(state, played(1, 0, ["9S"]));
  note(state, { type: "clock", seq: 2, seat: 1, deadline: 1234.5 });
  note(state, passed(3, 1));
  note(state, passed(4, 2));
  note(state, { type: "move", seq: 5, move: {}, by: "seat" });
  note(state, passed(6, 3));
  assert.equal(state.deadline, 1234.5);
  assert.deepEqual(
    state.log.map((entry) => [entry.type, entry.seats, entry.seqs]),
    [
      ["played", [0], [1]],
      ["passed", [1, 2, 3], [3, 4, 6]],
    ],
  );
  assert.deepEqual(logLine(state.log[1]), { key: "ev_passed", seatLists: { seats: [1, 2, 3] } });
});

test("every log line has a sentence in both languages; an unknown type gets no raw name", () => {
  const types = ["played", "passed", "yielded", "jiefeng", "trick_won", "finished", "deal_over",
    "crown_passed", "crown_forced", "accepted", "declined", "grabbed", "called", "solo_declared",
    "revealed", "rebelled", "deal_void", "left", "deal_started"];
  for (const type of types) {
    const { key } = logLine({ type, seat: 1, seats: [1], to: 2, lead: 1, position: 1, deal: 2 });
    assert.notEqual(t(key), key, `${type} has no sentence`);
  }
  assert.equal(logLine({ type: "phase", phase: "play", turn: 2 }).key, "ev_phase_play");
  assert.equal(logLine({ type: "trustee", seat: 1, on: true, cause: "timeout" }).key, "ev_trustee_on");
  assert.equal(logLine({ type: "something_new" }).key, "ev_other");
});

test("the role 革命党 and the action 造反 are two labels (i18n.js once had one key for both)", () => {
  assert.equal(t("roleRebel"), "Rebel 革命党");
  assert.equal(t("rebel"), "Rebel 造反");
  const source = readFileSync(new URL("../../service/baohuang/play/static/i18n.js", import.meta.url), "utf8");
  const keys = [...source.matchAll(/^ {2}"?([\w-]+)"?: \[/gm)].map((m) => m[1]);
  const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
  assert.deepEqual(twice, [], "a key given twice: the second silently wins");
});

test("a reason code picks a sentence, never the code itself", () => {
  assert.equal(reasonText("NOT_HIGHER"), "That does not beat the top play: play higher, or pass.");
  assert.ok(!reasonText("SOMETHING_ELSE").includes("SOMETHING_ELSE"));
  assert.ok(allStrings().includes("革命党"));
});

test("by trick: the replay jumps from one won trick to the next, and back", () => {
  // a record's steps (record.js): two seats holding cards, so one answer ends a trick
  const play = (seat, cards) => ({ act: "move", move: { seat, action: "play", cards } });
  const pass = (seat) => ({ act: "move", move: { seat, action: "pass" } });
  const record = {
    opening: { hands: [["KS", "5S", "3S"], ["9S", "4S"], [], [], []] },
    acts: [play(0, ["5S"]), pass(1), play(0, ["3S"]), play(1, ["4S"]), pass(0), play(1, ["9S"])],
    result: null,
  };
  const steps = recordSteps(record);
  // steps: 0 dealt, 1 5S, 2 pass, 3 trick won, 4 3S, 5 4S, 6 pass, 7 trick won, 8 9S (the end)
  assert.equal(steps.length, 9);
  assert.deepEqual([0, 1, 3, 4, 7, 8].map((at) => trickStep(steps, at, 1)), [3, 3, 7, 7, 8, 8]);
  assert.deepEqual([8, 7, 6, 3, 1, 0].map((at) => trickStep(steps, at, -1)), [7, 3, 3, 0, 0, 0]);
  assert.deepEqual(steps[3].plays, { 0: ["5S"] }); // a trick's end shows the whole trick
  assert.deepEqual([0, 3, 4, 7, 8].map((at) => trickOf(steps, at).n), [1, 1, 2, 2, 3]);
  assert.equal(trickOf(steps, 0).total, 3);
});

test("the live region says each play with its cards, passes, tricks and finishers; not the clock", () => {
  assert.deepEqual(announcement(played(1, 2, ["9S", "9H"])), { key: "say_played", seats: { seat: 2 }, cards: ["9S", "9H"] });
  assert.equal(announcement(passed(2, 3)).key, "ev_passed");
  assert.equal(announcement({ type: "trick_won", seat: 1, lead: 1 }).key, "ev_trick_won");
  assert.equal(announcement({ type: "finished", seat: 1, position: 1 }).key, "ev_finished");
  for (const type of ["clock", "move", "dealt", "deal_over"]) assert.equal(announcement({ type }), null, type);
  setLang("en", { keep: false });
  assert.equal(spokenCards(["9H", "9S", "BJ"]), "big joker, 9 hearts, 9 spades");
  setLang("zh", { keep: false });
  assert.equal(spokenCards(["9H", "9S", "BJ"]), "大王、红桃9、黑桃9");
  assert.equal(t("say_played", { seat: "座位2" }), "座位2 出 {cards}");
  setLang("en", { keep: false });
});

test("the seats whose clock ran out this deal are kept for the deal's end; a new deal forgets them", () => {
  const state = emptyState();
  note(state, { type: "trustee", seq: 1, seat: 3, on: true, count: 1, cause: "timeout" });
  note(state, { type: "trustee", seq: 2, seat: 1, on: true, count: 1, cause: "request" });
  note(state, { type: "trustee", seq: 3, seat: 3, on: true, count: 2, cause: "timeout" });
  assert.deepEqual(state.timedOut, [3]);
  assert.equal(state.recent.length, 3);
  note(state, { type: "deal_started", seq: 4, deal: 2, dealer: 0 });
  assert.deepEqual(state.timedOut, []);
  for (let seq = 5; seq < 500; seq++) note(state, passed(seq, seq % 5));
  assert.equal(state.recent.length, 200); // bounded
});

test("the language chosen is kept for the next visit (localStorage), and read back", async () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, value) };
  try {
    setLang("zh");
    assert.deepEqual([...kept], [["baohuang.lang", "zh"]]);
    const fresh = await import("../../service/baohuang/play/static/i18n.js?visit=2"); // a reload
    assert.equal(fresh.lang(), "zh");
    assert.equal(fresh.t("hand"), "手牌");
    setLang("en");
    assert.equal(lang(), "en");
    globalThis.localStorage = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
    setLang("zh"); // storage refused: the choice lasts as long as the page
    assert.equal(lang(), "zh");
  } finally {
    delete globalThis.localStorage;
    setLang("en", { keep: false });
  }
});
