// The board drawn from what the controller holds (table.js): the status, the seats, the trick,
// the deal's end, the replay and the log, a function of the page's state with the controller's
// actions (`c.act`) as the buttons' handlers; controls.js draws the hand and its actions. Nothing
// here reads the network or keeps state of its own; what is said comes from state.js and
// words.js.
//
// `c`, the controller's face to the view: `state` (table.js), `seatView()` (the view of the seat
// that acts here), `hand()` (its cards, keyed), `ownSeat()`, `youSeat()`, `nameOf(seat)`,
// `botOf(seat)`, `playing()`, `selectionRefused()`, and `act`: move, send, hint, clear, replay,
// goReplay, closeReplay, chooseCall.

import { rulesetSpec } from "./actions.js";
import { cardRow } from "./cards.js";
import { button } from "./controls.js";
import { h } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { replayView } from "./replay.js";
import { eventCards, logLine } from "./state.js";
import { outcome } from "./words.js";

const PLACES = ["place1", "place2", "place3", "place4", "place5"];

/** The board: the status, the seats, the trick, the crown, the deal's end, the replay, the log
 *  and a seat's 托管 and leaving. It scrolls in its own box. */
export function boardView(c) {
  const { state } = c;
  const { view } = state.answer;
  const spec = rulesetSpec(view.ruleset, state.defaults);
  return h(
    "div",
    { class: "board" },
    renderStatus(c, view, spec),
    h(
      "div",
      { class: "seats" },
      seatOrder(c, view).map((seat) => renderSeat(c, view, seat)),
    ),
    renderTrick(c, view),
    renderCrown(c, view),
    renderOver(c, view),
    state.replay ? renderReplay(c) : null,
    renderLog(c),
    // 托管 and leaving are rare: below the log, out of the way of the actions of every turn
    state.role === "seat" && state.answer.table?.seats
      ? h("div", { class: "actions seat-menu" }, renderSeatClock(c, view, state.answer.table.seats[view.seat]))
      : null,
  );
}

/** A finished deal stepped through (replay.js), with the board's names and buttons. */
function renderReplay(c) {
  return replayView(c.state.replay, {
    nameOf: c.nameOf,
    describe: (entry) => describe(c, entry),
    own: c.ownSeat(),
    button: (...args) => button(c, ...args),
    go: c.act.goReplay,
    close: c.act.closeReplay,
  });
}

/** A seat sees the others in playing order after it, itself last (next to its hand). */
function seatOrder(c, view) {
  const own = c.ownSeat();
  const first = own === null ? 0 : own + 1;
  return [0, 1, 2, 3, 4].map((step) => (first + step) % 5);
}

function renderStatus(c, view, spec) {
  const options = [
    spec.kaopai && t("kaopai"),
    spec.bie6 && t("bie6"),
    spec.deck === "short" && t("deck_short"),
  ];
  const own = c.ownSeat();
  const whose = view.over
    ? t("over")
    : view.turn === own
      ? c.state.role === "hotseat"
        ? `${seatName(own)} · ${t("yourTurn")}`
        : t("yourTurn")
      : t("waiting", { seat: c.nameOf(view.turn) });
  const role = {
    seat: seatName(view.seat),
    spectator: t("spectator"),
    operator: t("operator"),
    hotseat: t("hotseatTitle"),
  }[c.state.role];
  return h(
    "header",
    { class: "status" },
    h("span", { class: "who" }, role),
    h("strong", { class: view.turn === own && !view.over ? "your-turn" : "", "data-region": "to-act" }, whose),
    h("span", { class: "countdown", id: "countdown", hidden: true }),
    h(
      "span",
      { class: `connection ${c.state.connection}`, "data-connection": c.state.connection },
      t(c.state.connection),
    ),
    h(
      "span",
      { class: "about" },
      `${c.state.answer.id} · ${t(`ruleset_${spec.base}`)}`,
      ...options.filter(Boolean).map((o) => ` · ${o}`),
      " · ",
      t(`phase_${view.phase}`),
      view.crown?.stage ? ` · ${t(`stage_${view.crown.stage}`)}` : "",
      view.mode !== "team" ? ` · ${t(`mode_${view.mode}`)}` : "", // 暗独 shows only to the emperor
      h("span", { class: "version", title: `${t("version")} ${c.state.answer.version}` }, ` · v${c.state.answer.version}`),
    ),
  );
}

/** Role badges, as far as this caller may know them: the view names the guard only when it is
 *  shown (明保), to the guard itself, or once the deal is over (G-8). A bot seat says so. */
function badges(c, view, seat) {
  const list = [];
  const seats = c.state.answer.table?.seats;
  if (view.phase === "crown") {
    if (seat === view.emperor) list.push(["crown", t("crownHolder")]);
  } else if (seat === view.emperor) list.push(["emperor", t("emperor")]);
  const own = c.ownSeat();
  if (view.guard === seat && view.guard !== view.emperor) {
    list.push([
      "guard",
      view.guard_revealed || view.over || own === null || own !== seat ? t("guard") : t("hiddenGuard"),
    ]);
  }
  // the role 革命党, and apart from it the action 造反 for a seat that declared it
  if (rebel(c, view, seat)) list.push(["rebel", t("roleRebel")]);
  if (view.rebellion.includes(seat)) list.push(["rebelled", t("rebelled")]);
  if (c.botOf(seat)) list.push(["bot", t("bot"), t(`level_${c.botOf(seat)}`)]);
  if (seats?.[seat]?.trustee) list.push(["trustee", t("trustee")]);
  if (seats?.[seat]?.left) list.push(["left", t("left")]);
  const place = view.positions ? view.positions[seat] - 1 : view.finished.indexOf(seat);
  if (place >= 0) list.push(["place", t(PLACES[place])]);
  return list.map(([kind, label, title]) =>
    h("span", { class: `badge ${kind}`, "data-badge": kind, title: title ?? null }, label),
  );
}

/** Whether ``seat`` is known to this caller as a rebel (革命党): once roles are settled, every
 *  seat but the emperor in a game without a guard, every seat but a known guard, and a seat
 *  itself when its view names no guard (the guard always sees itself, G-8). */
function rebel(c, view, seat) {
  if (view.phase !== "play" || seat === view.emperor) return false;
  if (view.mode !== "team") return true;
  if (view.guard !== null) return seat !== view.guard;
  return seat === c.ownSeat();
}

function renderSeat(c, view, seat) {
  const trick = view.trick;
  const played = c.state.trick.plays[seat] ?? (trick.top?.seat === seat ? trick.top.cards : null);
  const marks = [
    trick.passed.includes(seat) && t("passed"),
    trick.yielded.includes(seat) && t("yielded"),
    trick.jiefeng === seat && t("jiefeng"),
  ].filter(Boolean);
  const total = c.state.answer.table?.totals?.[seat];
  const count = view.counts?.[seat] ?? view.hands[seat].length; // a platform's view has hands
  const own = c.ownSeat();
  const cards = `${count} ${t("cards")}`;
  return h(
    "article",
    {
      class: `seat${seat === own ? " me" : ""}${seat === view.turn && !view.over ? " turn" : ""}${trick.top?.seat === seat ? " top" : ""}`,
      "data-seat": seat,
      "aria-current": seat === view.turn && !view.over ? "true" : null,
    },
    h(
      "h2",
      {},
      h("span", { class: "name" }, seatName(seat, c.state.role === "seat" ? own : null)),
      // the count as a small stack of cards: read out as "33 cards"
      h("span", { class: "count", title: cards, "aria-label": cards }, String(count)),
    ),
    h(
      "div",
      { class: "badges" },
      badges(c, view, seat),
      total !== undefined ? h("span", { class: "total" }, `${t("total")} ${total}`) : null,
    ),
    h(
      "div",
      { class: `play${c.state.trick.over ? " done" : ""}` },
      played ? h("span", { "data-play": played.join(" ") }, cardRow(played, { small: true })) : null,
      marks.map((mark) => h("span", { class: "mark" }, mark)),
    ),
    c.state.role === "operator"
      ? h("div", { class: "full-hand", "data-hand": seat }, cardRow(view.hands[seat], { small: true }))
      : null,
  );
}

/** The trick in the middle of the table: the play to beat and who made it, or who leads. */
function renderTrick(c, view) {
  if (view.phase !== "play" || view.over) return null;
  const top = view.trick.top;
  return h(
    "section",
    { class: "trick", "data-region": "trick", "aria-label": t("trick") },
    h("span", { class: "label" }, t("trick")),
    top
      ? [
          h("span", {}, t("topPlay", { seat: c.nameOf(top.seat) })),
          h("span", { "data-play": top.cards.join(" ") }, cardRow(top.cards)),
        ]
      : h("span", {}, t("toLead", { seat: c.nameOf(view.turn) })),
  );
}

/** Before play: the crown's hand-ons and the cards travelling with it; the called card. */
function renderCrown(c, view) {
  if (view.phase === "play" && !view.called) return null;
  const crown = view.crown;
  return h(
    "section",
    { class: "crown-info", "data-region": "trick" },
    view.called
      ? h("span", { "data-play": view.called }, `${t("called")}: `, cardRow([view.called], { small: true }))
      : null,
    crown ? h("span", {}, `${t("passes")}: ${crown.passes}`) : null,
    crown?.pile.length
      ? h(
          "span",
          {},
          `${t("pile")}: `,
          h("span", { "data-play": crown.pile.join(" ") }, cardRow(crown.pile, { small: true })),
        )
      : null,
  );
}

/** 托管 and leaving, where the table keeps clocks (T-11, S-9). */
function renderSeatClock(c, view, mine) {
  if (!mine || view.over) return null;
  const seat = view.seat;
  return [
    button(c, "trustee", mine.trustee ? t("trusteeOff") : t("trusteeOn"), () =>
      c.act.send(`/seats/${seat}/trustee`, { on: !mine.trustee }, { seat, action: "trustee", on: !mine.trustee }),
    ),
    mine.left
      ? null
      : button(c, 
          "leave",
          t("leave"),
          () => confirm(t("leaveSure")) && c.act.send(`/seats/${seat}/leave`, {}, { seat, action: "leave" }),
        ),
  ];
}

/** The end of the deal: what happened, in words (words.js), the places and scores, and the
 *  cards a seat still held. */
function renderOver(c, view) {
  if (!view.over) return null;
  const next =
    (c.state.role === "operator" || c.state.role === "hotseat") && c.state.answer.table
      ? button(c, "next-deal", t("nextDeal"), () => c.act.send("/deals", {}, { action: "next-deal" }))
      : null;
  const replay = c.state.replay ? null : button(c, "replay", t("replay"), c.act.replay);
  const end = outcome(view, c.state.answer.table, c.state);
  const rows = [0, 1, 2, 3, 4].map((seat) =>
    h(
      "tr",
      {},
      h("th", {}, c.nameOf(seat)),
      h("td", {}, view.positions ? t(PLACES[view.positions[seat] - 1]) : ""),
      h("td", { class: "score" }, c.state.scores ? String(c.state.scores[seat]) : ""),
    ),
  );
  const left = c.state.role === "seat" ? view.hand : null; // what the seat did not get to play
  return h(
    "section",
    { class: "over", "data-outcome": end.title },
    h("h2", {}, t(end.title)),
    end.lines.map((line) => h("p", { class: "why" }, sentence(c, line))),
    view.void
      ? null
      : h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("positions")), h("th", {}, t("score")))),
          h("tbody", {}, rows),
        ),
    left?.length
      ? h("p", { class: "left-hand" }, `${t("handLeft")}: `, h("span", { "data-region": "hand" }, cardRow(left, { small: true })))
      : null,
    h("div", { class: "actions" }, replay, next),
  );
}

/** A sentence of c.state.js or words.js ({key, seats, seatLists, causes, places, params}) in
 *  the page's words: seats named, causes and places as labels. */
export function sentence(c, line) {
  const params = { ...line.params };
  for (const [name, seat] of Object.entries(line.seats ?? {})) params[name] = c.nameOf(seat);
  for (const [name, seats] of Object.entries(line.seatLists ?? {}))
    params[name] = seats.map((seat) => c.nameOf(seat)).join(t("and"));
  for (const [name, cause] of Object.entries(line.causes ?? {})) params[name] = t(`cause_${cause}`);
  for (const [name, place] of Object.entries(line.places ?? {})) params[name] = t(PLACES[place - 1]);
  return t(line.key, params);
}

/** A log line: the sentence of its event (c.state.js picks the label), and its cards. */
function describe(c, entry) {
  const cards = eventCards(entry);
  return [
    h("span", {}, sentence(c, logLine(entry))),
    cards.length ? h("span", { "data-play": cards.join(" ") }, " ", cardRow(cards, { small: true })) : null,
  ];
}

function renderLog(c) {
  const items = c.state.log
    .slice(-60)
    .reverse()
    .map((entry) => h("li", { "data-seq": entry.seqs.join(" ") }, describe(c, entry)));
  // open by default for those who only watch; a player's choice is kept across renders
  const open = c.state.logOpen ?? (c.state.role === "operator" || c.state.role === "spectator");
  const details = h("details", { class: "log", open: open || null }, h("summary", {}, t("log")), h("ol", {}, items));
  details.addEventListener("toggle", () => (c.state.logOpen = details.open));
  return details;
}
