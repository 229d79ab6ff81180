// The page's replay of a deal record (service/baohuang/play/static/record.js) in node: the acts
// as the events the page draws, where a trick ends, and the hands each caller may see.
// Run: node --test tests/play_js/ (tests/http/test_play_state_js.py runs it).

import assert from "node:assert/strict";
import { test } from "node:test";

import { recordEvents, recordSteps } from "../../service/baohuang/play/static/record.js";

const HANDS = [["BJ*", "7S", "7H", "9D"], ["8S", "8H", "KD"], ["9S", "QH"], ["TS", "TH"], ["JS"]];
const play = (seat, cards) => ({ act: "move", move: { seat, action: "play", cards } });
const answer = (seat, action) => ({ act: "move", move: { seat, action }, by: "trustee" });

function record(acts, opening = { hands: HANDS }) {
  return { record: "full", version: 1, opening, acts, result: null };
}

const ACTS = [
  play(0, ["7S", "7H"]),
  play(1, ["8S", "8H"]),
  answer(2, "pass"),
  play(3, ["TS", "TH"]), // seat 3 goes out: its 底牌
  answer(4, "pass"),
  answer(0, "pass"),
  answer(1, "pass"),
  answer(2, "pass"), // every seat holding cards answered: the trick ends, 接风 to seat 4
  { act: "trustee", seat: 2, on: true, count: 1, cause: "timeout" },
  play(4, ["JS"]),
];

test("a play leads a new trick once every seat holding cards answered the top", () => {
  const kinds = recordEvents(record(ACTS)).map((event) => event.type);
  assert.deepEqual(kinds, [
    "played", "played", "passed", "played", "passed", "passed", "passed", "passed",
    "trustee", "trick_won", "played",
  ]);
  const won = recordEvents(record(ACTS)).find((event) => event.type === "trick_won");
  assert.deepEqual(won, { type: "trick_won", seat: 3, lead: 4 });
});

test("a yield owes a second answer (T-6): a play before it beats, after it leads", () => {
  const yielded = [play(0, ["7S"]), answer(1, "yield"), answer(2, "pass"), answer(3, "pass"), answer(4, "pass")];
  const beat = recordEvents(record([...yielded, play(1, ["8S"])])).map((event) => event.type);
  assert.ok(!beat.includes("trick_won")); // seat 1 beats in the second circle
  const led = recordEvents(record([...yielded, answer(1, "pass"), play(0, ["9D"])]));
  assert.equal(led.at(-2).type, "trick_won");
});

test("the steps run from the hands dealt to what is left, the trick cleared at each lead", () => {
  const steps = recordSteps(record(ACTS));
  assert.deepEqual(steps[0].hands, Object.fromEntries(HANDS.map((hand, seat) => [seat, hand])));
  assert.deepEqual(steps.at(-1).hands[3], []);
  assert.deepEqual(steps.at(-1).hands[0], ["BJ*", "9D"]);
  assert.deepEqual(steps.at(-1).plays, { 4: ["JS"] }); // the new trick alone
  assert.equal(steps.length, 1 + 11);
});

test("a seat's record replays its own hand only, a spectator's none", () => {
  const seat = recordSteps(record(ACTS, { seat: 1, hand: HANDS[1], counts: [4, 3, 2, 2, 1] }));
  assert.deepEqual(Object.keys(seat[0].hands), ["1"]);
  assert.deepEqual(seat.at(-1).hands, { 1: ["KD"] });
  const spectator = recordSteps(record(ACTS, { counts: [4, 3, 2, 2, 1] }));
  assert.deepEqual(spectator[0].hands, {});
  assert.equal(recordEvents(record(ACTS, { counts: [4, 3, 2, 2, 1] })).filter((e) => e.type === "trick_won").length, 1);
});

test("before-play acts and the end are steps too", () => {
  const acts = [{ act: "move", move: { seat: 0, action: "call", card: "9D" } }, { act: "left", seat: 2, penalty: 0 }];
  const events = recordEvents({ ...record(acts), result: { deal: 1 } });
  assert.deepEqual(events, [
    { type: "called", seat: 0, card: "9D" },
    { type: "left", seat: 2 },
    { type: "deal_over" },
  ]);
});
