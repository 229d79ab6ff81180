// The replay of a deal from its record (GET /v1/tables/{id}/deals/{deal}, docs/records.md), as
// plain data: no DOM, so that node runs it (tests/play_js/record.test.mjs). The record holds the
// opening hands this caller may see (every hand: an operator, or anyone once a committed deal is
// over; a seat: its own; a spectator: none) and every act; the steps are the acts as the events
// the page draws (state.js), each with the hands and the trick after it.
//
// A record keeps the acts, not what each move made, so where a trick ends is worked out here
// from the public counts of cards: a play leads a new trick once every other seat still holding
// cards has answered the play on top (a pass, a yield, 接风), and each seat that yielded has
// answered again (T-5, T-6, T-7). It only decides when the trick on the table is cleared.

import { emptyState, note } from "./state.js";

const ANSWERS = { pass: "passed", yield: "yielded", jiefeng: "jiefeng" };
const BEFORE_PLAY = {
  decline: "declined",
  accept: "accepted",
  grab: "grabbed",
  call: "called",
  declare_solo: "solo_declared",
  reveal: "revealed",
  rebel: "rebelled",
};

/** The hands of the opening this caller may see, by seat, and every seat's count. */
function opening(record) {
  const view = record.opening;
  const hands = {};
  if (view.hands) view.hands.forEach((cards, seat) => (hands[seat] = [...cards]));
  else if (view.hand) hands[view.seat] = [...view.hand];
  const counts = view.counts ?? view.hands.map((cards) => cards.length);
  return { hands, counts: [...counts] };
}

/** The record's acts as events (played, passed, trustee, …), with a `trick_won` before each
 *  play that leads a new trick (see the module's comment). */
export function recordEvents(record) {
  const { counts } = opening(record);
  const events = [];
  let top = null; // the seat whose play is on top
  let answered = 0; // answers since that play
  let owed = 0; // answers owed: the other seats holding cards, and each yield once more
  for (const act of record.acts) {
    if (act.act === "trustee") events.push({ type: "trustee", seat: act.seat, on: act.on, cause: act.cause });
    else if (act.act === "left") events.push({ type: "left", seat: act.seat });
    else {
      const { seat, action } = act.move;
      if (action === "play") {
        if (top !== null && answered >= owed) events.push({ type: "trick_won", seat: top, lead: seat });
        events.push({ type: "played", seat, cards: act.move.cards });
        counts[seat] -= act.move.cards.length;
        top = seat;
        answered = 0;
        owed = counts.filter((count, other) => other !== seat && count > 0).length;
      } else if (ANSWERS[action]) {
        events.push({ type: ANSWERS[action], seat });
        answered += 1;
        if (action === "yield") owed += 1;
      } else if (BEFORE_PLAY[action]) {
        events.push({ type: BEFORE_PLAY[action], seat, ...(act.move.card ? { card: act.move.card } : {}) });
      }
    }
  }
  if (record.result) events.push({ type: "deal_over" });
  return events;
}

/** The replay's steps: the deal as dealt, then one step per event, each with the hands this
 *  caller may see and the trick as it stood after it (the shape table.js draws). */
export function recordSteps(record) {
  const { hands } = opening(record);
  const state = emptyState();
  const snapshot = () => ({
    hands: Object.fromEntries(Object.entries(hands).map(([seat, hand]) => [seat, [...hand]])),
    plays: { ...state.trick.plays },
    over: state.trick.over,
  });
  const steps = [{ event: null, ...snapshot() }];
  for (const event of recordEvents(record)) {
    note(state, event);
    if (event.type === "played" && hands[event.seat]) {
      for (const card of event.cards) {
        const at = hands[event.seat].indexOf(card);
        if (at >= 0) hands[event.seat].splice(at, 1);
      }
    }
    steps.push({ event, ...snapshot() });
  }
  return steps;
}

/** The steps of deal `deal` at the table under `path` (`v1/tables/<id>`), read with the page's
 *  credential; null when the table keeps no record of it. */
export async function openRecord(api, path, deal) {
  const answer = await api.get(`${path}/deals/${deal}`).catch(() => null);
  return answer?.ok ? recordSteps(answer.body) : null;
}
