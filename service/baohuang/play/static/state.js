// What the page keeps of a table's events, as plain data: a handler per event type, no DOM and
// no requests, so that node runs it (tests/play_js/). table.js draws the result; api.js and
// live.js bring the events.
//
//   trick:  {plays: {seat: cards}, over}  the plays of the trick on the table; `over` once a
//           trick is won, its plays stay shown (greyed) until the next lead
//   log:    the events a player cares about, folded: a clock event is no line (the countdown
//           shows it), the platform's records (`move`, `dealt`) are no line, and a run of
//           passes on one play is one line
//   deadline: when the seat to act runs out of time (unix seconds), or null
//   recent: the last events as they came, unfolded (words.js reads a write's events from them)
//   timedOut: the seats whose clock ran out this deal (托管 played on for them)

/** Events of the log that say nothing to a player. */
const UNLISTED = new Set(["clock", "move", "dealt"]);

export function emptyState() {
  return { trick: { plays: {}, over: false }, log: [], deadline: null, recent: [], timedOut: [] };
}

const RECENT = 200;

/** One handler per event type that changes the table's picture; others only go to the log. */
export const ON = {
  played(state, event) {
    if (state.trick.over) state.trick = { plays: {}, over: false };
    state.trick.plays[event.seat] = event.cards;
  },
  trick_won(state) {
    state.trick.over = true;
  },
  clock(state, event) {
    state.deadline = event.deadline;
  },
  phase(state) {
    state.trick = { plays: {}, over: false };
  },
  deal_started(state) {
    state.trick = { plays: {}, over: false };
    state.timedOut = [];
  },
  trustee(state, event) {
    if (event.on && event.cause === "timeout" && !state.timedOut.includes(event.seat)) state.timedOut.push(event.seat);
  },
};

/** Take one event: the handler of its type, then the log. */
export function note(state, event, { limit = 300 } = {}) {
  ON[event.type]?.(state, event);
  state.recent.push(event);
  if (state.recent.length > RECENT) state.recent.shift();
  if (UNLISTED.has(event.type)) return state;
  const last = state.log.at(-1);
  if (event.type === "passed" && last?.type === "passed") {
    last.seats.push(event.seat); // one line for the passes on one play
    last.seq = event.seq;
    last.seqs.push(event.seq);
  } else {
    state.log.push({ ...event, seats: event.seat === undefined ? [] : [event.seat], seqs: [event.seq] });
    if (state.log.length > limit) state.log.shift();
  }
  return state;
}

/** The label key and parameters of a log line: i18n.js turns them into a sentence. Seats are
 *  numbers here; the view names them. */
export function logLine(entry) {
  switch (entry.type) {
    case "phase":
      return entry.phase === "play"
        ? { key: "ev_phase_play", seats: { seat: entry.turn } }
        : { key: "ev_phase_guard", seats: {} };
    case "trustee":
      return entry.on
        ? { key: "ev_trustee_on", seats: { seat: entry.seat }, causes: { cause: entry.cause ?? "request" } }
        : { key: "ev_trustee_off", seats: { seat: entry.seat } };
    case "passed":
      return { key: "ev_passed", seatLists: { seats: entry.seats ?? [entry.seat] } }; // a raw event: one
    case "trick_won":
      return { key: "ev_trick_won", seats: { seat: entry.seat, lead: entry.lead } };
    case "finished":
      return { key: "ev_finished", seats: { seat: entry.seat }, places: { place: entry.position } };
    case "crown_passed":
      return { key: "ev_crown_passed", seats: { seat: entry.seat, to: entry.to } };
    case "deal_started":
      return { key: "ev_deal_started", params: { deal: entry.deal } };
    case "played":
    case "yielded":
    case "jiefeng":
    case "crown_forced":
    case "accepted":
    case "declined":
    case "grabbed":
    case "called":
    case "solo_declared":
    case "revealed":
    case "rebelled":
    case "left":
      return { key: `ev_${entry.type}`, seats: { seat: entry.seat } };
    case "deal_over":
    case "deal_void":
      return { key: `ev_${entry.type}`, seats: {} };
    default:
      return { key: "ev_other", seats: {} }; // a type this page does not know yet: no raw name
  }
}

/** What the live region says of an event as it happens (announcer.js), or null for an event it
 *  leaves to others: a play names its cards; the end of the deal is said by its outcome
 *  (words.js), the turn by the view that follows. */
export function announcement(event) {
  if (event.type === "played") return { key: "say_played", seats: { seat: event.seat }, cards: event.cards };
  if (UNLISTED.has(event.type) || event.type === "deal_over") return null;
  return logLine(event);
}

/** The cards an event shows: a play, a called card, a card handed on with the crown. */
export function eventCards(event) {
  if (event.type === "crown_passed") return event.added ? [event.added] : [];
  if (event.type === "called") return [event.card];
  return event.cards ?? [];
}

// ---- replay: by trick (the steps are record.js's) --------------------------------------------

/** The steps at which a trick is won: where "by trick" stops, each showing the whole trick. */
export function trickEnds(steps) {
  return steps.flatMap((step, at) => (step.event?.type === "trick_won" ? [at] : []));
}

/** The step "by trick" goes to from `at`: the next trick's end (`direction` 1) or the one
 *  before (-1); the last step, or the first, when there is none. */
export function trickStep(steps, at, direction) {
  const ends = trickEnds(steps);
  if (direction > 0) return ends.find((end) => end > at) ?? steps.length - 1;
  return ends.findLast((end) => end < at) ?? 0;
}

/** Which trick step `at` belongs to (1 …), and how many tricks the deal has: every trick won,
 *  and the last one when the deal ended in it (a seat's last play ends the deal unbeaten). */
export function trickOf(steps, at) {
  const ends = trickEnds(steps);
  const total = ends.length + (steps.length - 1 > (ends.at(-1) ?? 0) ? 1 : 0);
  return { n: ends.filter((end) => end < at).length + 1, total: Math.max(1, total) };
}
