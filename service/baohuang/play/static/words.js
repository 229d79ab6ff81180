// What the page says about what happened, as data: which sentence (an i18n.js key) and its
// parameters, chosen from the table's answers and events. No DOM and no requests, so that node
// runs it (tests/play_js/); table.js draws the sentences.
//
//   notice:  the line under the actions about the player's last request: a rule's verdict, a
//            request that failed (by kind: no answer in time, no network, a busy table …), or a
//            note (someone moved first; a move whose answer came late did land). Each notice
//            names the table version it describes, and goes once the table moves past it
//            (settle).
//   outcome: the end of a deal, with its own reason when it is void or unscored.

/** A refused request as the player should read it: `kind` picks the wording.
 *  "rule" is the table's verdict on a move (422: its reason code and rule id); the others are
 *  no verdict at all, and say what the player can do. */
export function problemOf(answer) {
  const error = answer.body?.errors?.[0] ?? {};
  const code = error.code ?? String(answer.status);
  if (answer.status === 422) return { kind: "rule", code, rule: error.rule ?? null };
  if (answer.status === 409) return { kind: "conflict", code };
  if (answer.status === 429 || answer.status === 503) return { kind: "busy", code };
  if (answer.status === 401 || answer.status === 403) return { kind: "link", code };
  if (answer.status === 404) return { kind: "gone", code };
  return { kind: "request", code }; // 400 or 5xx: the page sent what the table cannot read
}

/** A request that got no answer: no answer in time (api.js's TimeoutError), or no network. */
export function troubleOf(error) {
  return { kind: error?.name === "TimeoutError" ? "timeout" : "network" };
}

// ---- a move sent without an answer ------------------------------------------------------------

/** The events a write makes, by action: what shows in the log that it landed. A crown handed
 *  on is `crown_passed`; a decline later, in the guard phase, `declined`; the next deal (the
 *  platform's, no seat) `deal_started`. */
const MADE = {
  play: ["played"],
  pass: ["passed"],
  yield: ["yielded"],
  jiefeng: ["jiefeng"],
  call: ["called"],
  decline: ["crown_passed", "declined"],
  accept: ["accepted"],
  grab: ["grabbed"],
  declare_solo: ["solo_declared"],
  reveal: ["revealed"],
  rebel: ["rebelled"],
  trustee: ["trustee"],
  leave: ["left"],
  "next-deal": ["deal_started"],
};

const sorted = (cards) => [...cards].sort().join(" ");

/** Whether `sent` — {version, seat, action, cards?, on?}, a write sent at table `version` that got
 *  no answer — landed, from the events of the write that followed (version + 1): true when they
 *  show that seat making that move; false when that write was another (someone else's move, or
 *  托管 playing the seat's turn after its clock ran out); null when those events are not known. */
export function landed(sent, events) {
  const write = events.filter((event) => event.version === sent.version + 1);
  if (!write.length) return null;
  const first = write.find((event) => event.type !== "clock");
  if (!first) return null;
  // 托管 took the turn: the time-out's own write, with the seat's trustee event first
  if (first.type === "trustee" && first.seat === sent.seat && first.cause === "timeout") return false;
  const kinds = MADE[sent.action] ?? [];
  return write.some(
    (event) =>
      event.seat === sent.seat &&
      kinds.includes(event.type) &&
      (sent.action !== "play" || sorted(event.cards) === sorted(sent.cards)) &&
      (sent.action !== "call" || event.card === sent.card) &&
      (sent.action !== "trustee" || event.on === sent.on),
  );
}

/** The page's words once the table is at `version`, given the recent `events`: `notice` (the
 *  line under the actions) and `unanswered` (the last write sent that got no answer, as
 *  {version, seat, action, …}). A write without an answer is settled as soon as the table moved
 *  past the version it was sent at: it landed, or another write came first; either is said. A
 *  notice about an earlier version of the table goes. */
export function settle({ notice, unanswered }, version, events) {
  if (unanswered && version > unanswered.version) {
    const made = landed(unanswered, events);
    if (made !== null) return { notice: { kind: made ? "landed" : "missed", version }, unanswered: null };
    unanswered = null;
  }
  if (notice && version > notice.version) notice = null;
  return { notice, unanswered };
}

// ---- the end of a deal ----------------------------------------------------------------------

/** Which deal result describes the finished deal on screen: the table's newest result of this
 *  deal, else the one the log's `deal_over` carries. */
function resultOf(table, log) {
  const kept = table?.results?.at(-1);
  if (kept && (table.deal === undefined || kept.deal === table.deal)) return kept;
  return log.findLast((entry) => entry.type === "deal_over")?.result ?? null;
}

/** Why a void view is void (S-10): the result's reason, else — a table that keeps no results —
 *  nobody took the crown when the log shows it. */
function voidReason(result, log) {
  if (result?.score?.void) return result.score.void;
  if (log.some((entry) => entry.type === "deal_void")) return { code: "NO_EMPEROR", rule: null };
  return null;
}

/** What the end of the deal says: a title, and lines, each {key, seatLists?} (seats are
 *  numbers; the view names them). `view` is the finished deal's view, `table` the table beside
 *  it (may be missing), `seen` what state.js kept of the events: the folded `log`, and the seats
 *  whose clock ran out this deal (`timedOut`). */
export function outcome(view, table, { log, timedOut }) {
  if (!view.over) return null;
  const result = resultOf(table, log);
  const lines = [];
  let title = "over";
  if (view.void) {
    const reason = voidReason(result, log);
    if (reason?.code === "ALL_TRUSTEE") {
      title = "outcome_ALL_TRUSTEE";
      lines.push({ key: "why_T-11" });
    } else if (reason?.code === "NO_EMPEROR") {
      title = "outcome_NO_EMPEROR";
      if (reason.rule) lines.push({ key: `why_${reason.rule}` });
      lines.push({ key: "voidAgain" });
    } else {
      title = "outcome_void";
    }
  } else if (result?.score?.winner) {
    lines.push({ key: `winner_${result.score.winner}` });
  }
  const late = [...timedOut].sort((a, b) => a - b);
  if (late.length) lines.push({ key: "timedOut", seatLists: { seats: late } });
  // 托管 playing the deal out for some seats (all of them: the title says so already)
  const auto = (table?.seats ?? []).flatMap((seat, index) => (seat.trustee && !late.includes(index) ? [index] : []));
  if (auto.length && title !== "outcome_ALL_TRUSTEE") lines.push({ key: "trusteeEnd", seatLists: { seats: auto } });
  return { title, lines };
}
