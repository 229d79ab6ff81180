// The page's state module in node (no browser): what each event does to the picture of the
// table and how the log is folded (the replay of a deal: record.test.mjs). Run: node --test tests/play_js/
// (tests/http/test_play_state_js.py runs it in the quick suite).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { allStrings, reasonText, t } from "../../service/baohuang/play/static/i18n.js";
import { emptyState, logLine, note } from "../../service/baohuang/play/static/state.js";

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
