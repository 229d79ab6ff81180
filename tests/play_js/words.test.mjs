// What the page says of what happened (words.js), in node: errors worded by their kind, a move
// whose answer never came settled by the log, the notice gone once the table moves past it, and
// the end of a deal with its own reason. Run: node --test tests/play_js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang, t } from "../../service/baohuang/play/static/i18n.js";
import { landed, outcome, problemOf, settle, troubleOf } from "../../service/baohuang/play/static/words.js";

const problem = (status, code, rule) => ({ status, body: { errors: [{ code, rule }] } });

test("a refusal is worded by its kind: only a 422 is a rule's verdict", () => {
  assert.deepEqual(problemOf(problem(422, "NOT_HIGHER", "N-2")), { kind: "rule", code: "NOT_HIGHER", rule: "N-2" });
  assert.equal(problemOf(problem(409, "VERSION_CONFLICT")).kind, "conflict");
  assert.equal(problemOf(problem(503, "OVERLOADED")).kind, "busy");
  assert.equal(problemOf(problem(429, "RATE_LIMITED")).kind, "busy");
  assert.equal(problemOf(problem(401, "UNAUTHORIZED")).kind, "link");
  assert.equal(problemOf(problem(403, "FORBIDDEN")).kind, "link");
  assert.equal(problemOf(problem(404, "TABLE_NOT_FOUND")).kind, "gone");
  assert.equal(problemOf(problem(400, "INVALID_FIELD")).kind, "request");
  assert.equal(problemOf({ status: 502, body: null }).code, "502"); // a proxy's page: no problem document
  assert.equal(troubleOf(Object.assign(new Error("x"), { name: "TimeoutError" })).kind, "timeout");
  assert.equal(troubleOf(new TypeError("Failed to fetch")).kind, "network");
});

test("no trouble but a rule's verdict says the rules refused anything, in either language", () => {
  for (const language of ["en", "zh"]) {
    setLang(language, { keep: false });
    for (const kind of ["timeout", "timeout_read", "network", "busy", "link", "gone", "request"]) {
      const text = t(`trouble_${kind}`, { n: 4 });
      assert.notEqual(text, `trouble_${kind}`);
      assert.ok(!text.includes(t("refused")), `${kind}: ${text}`);
      assert.ok(!/refused|不合规则/i.test(text), `${kind}: ${text}`);
    }
  }
  setLang("en", { keep: false });
  assert.match(t("trouble_timeout", { n: 4 }), /try again/); // and says what to do
  assert.match(t("trouble_network"), /check your network/);
});

// ---- a write without an answer --------------------------------------------------------------

const at = (version, events) => events.map((event, i) => ({ seq: 100 + i, version, ...event }));

test("a move that got no answer landed when the next write shows that seat making it", () => {
  const sent = { version: 7, seat: 2, action: "play", cards: ["9S", "9H"] };
  assert.equal(landed(sent, at(8, [{ type: "played", seat: 2, cards: ["9H", "9S"] }])), true);
  assert.equal(landed(sent, at(8, [{ type: "played", seat: 2, cards: ["9H", "9D"] }])), false);
  assert.equal(landed(sent, at(8, [{ type: "played", seat: 3, cards: ["TS", "TH"] }])), false);
  assert.equal(landed(sent, at(6, [{ type: "played", seat: 2, cards: ["9S", "9H"] }])), null); // not yet
  assert.equal(landed(sent, []), null);
});

test("托管 passing for a seat whose clock ran out is not the seat's own pass landing", () => {
  const sent = { version: 3, seat: 1, action: "pass" };
  const timeout = at(4, [
    { type: "clock", seat: null, deadline: null },
    { type: "trustee", seat: 1, on: true, count: 1, cause: "timeout" },
    { type: "passed", seat: 1 },
  ]);
  assert.equal(landed(sent, timeout), false);
  assert.equal(landed(sent, at(4, [{ type: "passed", seat: 1 }, { type: "clock", seat: 2, deadline: 9 }])), true);
  // before play: handing the crown on is a decline
  assert.equal(landed({ version: 1, seat: 0, action: "decline" }, at(2, [{ type: "crown_passed", seat: 0, to: 4 }])), true);
  assert.equal(landed({ version: 1, seat: 0, action: "call", card: "7S" }, at(2, [{ type: "called", seat: 0, card: "7S" }])), true);
  // the platform's next deal: no seat, the deal started
  assert.equal(landed({ version: 9, action: "next-deal" }, at(10, [{ type: "deal_started", deal: 2, dealer: 1 }])), true);
});

test("a timed-out move is settled whether its answer's time-out or the table's next write comes first", () => {
  const sent = { version: 5, seat: 0, action: "play", cards: ["3S"] };
  const write = at(6, [{ type: "played", seat: 0, cards: ["3S"] }]);
  const timedOut = { notice: { kind: "timeout", version: 5, move: true }, unanswered: sent };
  // the time-out first: the notice stays while the table is where it was, then says it landed
  assert.deepEqual(settle(timedOut, 5, []), timedOut);
  assert.deepEqual(settle(timedOut, 6, write), { notice: { kind: "landed", version: 6 }, unanswered: null });
  // the stream first: the time-out, when it comes, finds the move in the log already
  assert.deepEqual(settle(timedOut, 6, write).notice.kind, "landed");
  // another seat's write came first: the move can no longer land, and the page says so
  const other = at(6, [{ type: "trustee", seat: 0, on: true, count: 1, cause: "timeout" }, { type: "played", seat: 0, cards: ["3H"] }]);
  assert.equal(settle(timedOut, 6, other).notice.kind, "missed");
  // the events of that write are not known (a reload): nothing wrong is said, the notice goes
  assert.deepEqual(settle(timedOut, 9, []), { notice: null, unanswered: null });
});

test("a notice goes once the table moves past the version it describes", () => {
  const verdict = { notice: { kind: "rule", code: "NOT_HIGHER", version: 4 }, unanswered: null };
  assert.equal(settle(verdict, 4, []).notice.kind, "rule");
  assert.equal(settle(verdict, 5, []).notice, null);
  assert.deepEqual(settle({ notice: null, unanswered: null }, 5, []), { notice: null, unanswered: null });
});

// ---- the end of a deal --------------------------------------------------------------------

const over = { over: true, void: false };
const result = (deal, score) => ({ deal, score, penalties: [0, 0, 0, 0, 0] });
const seats = (trustee) => [0, 1, 2, 3, 4].map((seat) => ({ trustee: trustee.includes(seat), entered: 0, left: false, bot: null }));

test("a deal 托管 played out with every seat in it is unscored under T-11, not 黄庄", () => {
  const table = {
    deal: 1,
    seats: seats([0, 1, 2, 3, 4]),
    results: [result(1, { final: true, winner: null, void: { code: "ALL_TRUSTEE", rule: "T-11" } })],
  };
  const said = outcome({ over: true, void: true }, table, { log: [], timedOut: [0] });
  assert.deepEqual(said, {
    title: "outcome_ALL_TRUSTEE",
    lines: [{ key: "why_T-11" }, { key: "timedOut", seatLists: { seats: [0] } }],
  });
  setLang("en", { keep: false });
  const words = [t(said.title), ...said.lines.map((line) => t(line.key))].join(" ");
  assert.ok(!/黄庄|dealt again/.test(words), words);
  assert.match(words, /Not scored/);
});

test("nobody took the crown: 黄庄, with the rule that voids it, to be dealt again", () => {
  const table = { deal: 2, seats: seats([]), results: [result(2, { void: { code: "NO_EMPEROR", rule: "G-5" } })] };
  assert.deepEqual(outcome({ over: true, void: true }, table, { log: [], timedOut: [] }), {
    title: "outcome_NO_EMPEROR",
    lines: [{ key: "why_G-5" }, { key: "voidAgain" }],
  });
  // a table that keeps no results: the log's deal_void says it
  assert.equal(outcome({ over: true, void: true }, null, { log: [{ type: "deal_void" }], timedOut: [] }).title, "outcome_NO_EMPEROR");
  assert.equal(outcome({ over: true, void: true }, null, { log: [], timedOut: [] }).title, "outcome_void");
});

test("a scored deal says who won, and which seats 托管 played at the end", () => {
  const table = { deal: 3, seats: seats([1, 3]), results: [result(2, { winner: "rebels" }), result(3, { winner: "emperor", void: null })] };
  assert.deepEqual(outcome(over, table, { log: [], timedOut: [3] }), {
    title: "over",
    lines: [
      { key: "winner_emperor" },
      { key: "timedOut", seatLists: { seats: [3] } },
      { key: "trusteeEnd", seatLists: { seats: [1] } },
    ],
  });
  // the newest result is an earlier deal's (not yet this one's): the deal_over event tells
  const stale = { deal: 4, seats: seats([]), results: [result(3, { winner: "emperor" })] };
  const log = [{ type: "deal_over", result: result(4, { winner: "draw" }) }];
  assert.deepEqual(outcome(over, stale, { log, timedOut: [] }).lines, [{ key: "winner_draw" }]);
  assert.equal(outcome({ over: false }, table, { log, timedOut: [] }), null);
});

test("every sentence the end of a deal may say exists in both languages", () => {
  const keys = ["over", "outcome_ALL_TRUSTEE", "outcome_NO_EMPEROR", "outcome_void", "why_T-11", "why_G-5", "why_G-6",
    "why_G-7", "voidAgain", "timedOut", "trusteeEnd", "winner_emperor", "winner_rebels", "winner_draw", "landed", "missed"];
  for (const language of ["en", "zh"]) {
    setLang(language, { keep: false });
    for (const key of keys) assert.notEqual(t(key), key, `${language}: ${key}`);
  }
  setLang("en", { keep: false });
});
