// One table, as a seat, a spectator or an operator sees it.
//
// The loop is the simplest correct client of docs/clients.md:
//   1. follow the table's stream; its first frame (`snapshot`) is the caller's view: render it;
//   2. for each event: note it (the trick's plays, the log, the clock), and when the event is
//      newer than the view, read the table again (GET /v1/tables/{id}) and render that;
//   3. a move is POSTed with the version the page saw and an Idempotency-Key; 409 means someone
//      moved first (read again), 422 is the table's verdict, shown with its reason.
// Whatever a caller may not see never reaches it: the service cuts every answer to the caller.

// The pieces: api.js (requests with timeouts, the stream reader), live.js (one stream shared by
// the browser's tabs of a table), state.js (what the events mean, as data: tested in node), and
// this file, the view. Roles: "seat", "spectator", "operator", and "hotseat" — one page playing
// all five seats with the development service's platform view, showing only the hand of the
// seat to act (pass the device).

import { Api, TimeoutError } from "./api.js";
import { beforePlayActions, callable, playActions, rulesetSpec } from "./actions.js";
import { byRank, cardElement, cardRow, keyed } from "./cards.js";
import { fill, h } from "./dom.js";
import { reasonText, seatName, t } from "./i18n.js";
import { watch } from "./live.js";
import { openRecord } from "./record.js";
import { emptyState, eventCards, logLine, note as noteEvent } from "./state.js";

const PLACES = ["place1", "place2", "place3", "place4", "place5"];
const SHORTCUTS = { p: "play", s: "pass", y: "yield", j: "jiefeng" };

/** Open a table. `hotseat`: this page plays every seat (a development service, no credential). */
export async function openTable(root, tableId, credential, { hotseat = false } = {}) {
  const api = new Api(credential);
  const path = `v1/tables/${encodeURIComponent(tableId)}`;
  const state = {
    ...emptyState(), // trick, log, deadline: kept by state.js from the events
    answer: null, // the last table answer: {id, instance, version, view, last_seq, table?}
    role: null, // "seat", "spectator" or "operator", from the view's shape
    defaults: [], // GET /v1/rulesets
    selected: new Set(), // keys ("7S#2") of the selected cards of the own hand
    feedback: null, // what /v1/combos/* say of the selection
    verdict: null, // the table's last refusal, or a note
    scores: null, // the finished deal's scores
    connection: "connecting",
    busy: false, // a move is on its way
    callCard: null, // the card chosen to call (G-2)
    hints: null, // the seat's legal moves that are plays, from GET …/legal-moves; null: not asked
    hintAt: -1, // which of them the hint button showed last
    hintRoute: true, // false once the service answered that it has no legal-moves route
    replay: null, // {steps, at}: a finished deal stepped through
    actor: null, // hot-seat: the seat whose hand is shown
    logOpen: null, // whether the player opened the log (null: the role's default)
  };

  // ---- reading -------------------------------------------------------------------------------

  /** Take a table answer (a read, a stream's opening, a move answer) unless it is older. */
  function accept(answer) {
    if (state.answer && answer.version < state.answer.version && answer.instance === state.answer.instance)
      return;
    const view = answer.view;
    state.role = hotseat ? "hotseat" : view.hands ? "operator" : view.seat !== undefined ? "seat" : "spectator";
    if (hotseat && state.actor !== view.turn) {
      state.actor = view.turn; // another seat's turn: its hand, a fresh selection
      state.selected.clear();
      state.feedback = null;
    }
    if (answer.version !== state.answer?.version) {
      state.hints = null; // the top play changed: ask again
      state.hintAt = -1;
    }
    state.answer = answer;
    if (answer.table) state.deadline = answer.table.deadline ?? null;
    if (!view.over) state.scores = null;
    else if (!state.scores) loadScores();
    render();
  }

  let reading = null;
  let readAgain = false;
  /** GET the table; reads asked for while one is on its way coalesce into one more. A read that
   *  fails (the network is gone) is left for the stream's reconnection, which reads again. */
  function reread() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        const answer = await api.get(path).catch(() => null);
        if (answer?.ok) accept(answer.body);
      } while (readAgain);
    })().finally(() => (reading = null));
    return reading;
  }

  /** The trick so far, from the recent log (after a reload the view holds only the top play). */
  async function loadTrick(lastSeq) {
    let page = await api.get(`${path}/events?after=${Math.max(0, lastSeq - 300)}&limit=300`).catch(() => null);
    if (page?.ok && page.body.reset) {
      // the log starts after that seq (the deal before's events left it): read it from its start
      page = await api.get(`${path}/events?after=0&limit=300`).catch(() => null);
    }
    Object.assign(state, emptyState());
    if (!page?.ok) return;
    for (const event of page.body.events) if (event.seq <= lastSeq) note(event);
  }

  /** The finished deal's scores: from the table's results when it keeps them, else from the
   *  stateless POST /v1/scores with the roles the view shows once the deal is over. */
  async function loadScores() {
    const view = state.answer.view;
    const results = state.answer.table?.results;
    if (results?.length) {
      state.scores = results.at(-1).score?.scores ?? null;
      return;
    }
    if (view.void) return;
    const body = view.hands
      ? { snapshot: view }
      : {
          ruleset: view.ruleset,
          mode: view.mode,
          emperor: view.emperor,
          guard: view.guard,
          guard_revealed: view.guard_revealed,
          rebellion: view.rebellion,
          finished: view.finished,
        };
    const answer = await api.post("v1/scores", body).catch(() => null);
    if (answer?.ok && answer.body.final) {
      state.scores = answer.body.scores;
      render();
    }
  }

  /** Note an event: the trick's plays, the clock, the log (state.js). */
  const note = (event) => noteEvent(state, event);

  /** The view as the seat that acts here sees it: a seat's own, or in hot-seat the platform's
   *  view cut down to the seat to act (its hand only, the others' counts). */
  function ownView() {
    const view = state.answer.view;
    if (state.role !== "hotseat") return view;
    const seat = state.actor;
    return { ...view, seat, hand: view.hands[seat], counts: view.hands.map((hand) => hand.length) };
  }

  // ---- moving --------------------------------------------------------------------------------

  /** POST a move (or a clock route) for this table and take its answer. */
  async function send(route, body) {
    state.busy = true;
    state.verdict = null;
    render();
    try {
      const answer = await api.write(`${path}${route}`, { ...body, version: state.answer.version });
      if (answer.ok) {
        state.selected.clear();
        state.feedback = null;
        const { version, instance, view, table } = answer.body;
        if (view) accept({ ...state.answer, version, instance, view, table: table ?? state.answer.table });
        else await reread();
      } else if (answer.status === 409) {
        state.verdict = { note: t("conflict") }; // someone moved first: look again
        await reread();
      } else {
        const error = answer.body?.errors?.[0] ?? {};
        state.verdict = {
          code: error.code ?? answer.status,
          rule: error.rule,
          message: error.message ?? answer.body?.detail,
        };
      }
    } catch (error) {
      // no answer in time, or no network: say so; the buttons come back, the next try is new
      state.verdict = { code: error instanceof TimeoutError ? "TIMEOUT" : "NETWORK", message: String(error) };
    } finally {
      state.busy = false;
      render();
    }
  }

  function move(action, extra = {}) {
    const seat = ownView().seat;
    if (action === "play") extra = { cards: selectedCodes() };
    return send("/moves", { move: { seat, action, ...extra } });
  }

  function selectedCodes() {
    return hand()
      .filter((card) => state.selected.has(card.key))
      .map((card) => card.code);
  }

  const hand = () => keyed(state.answer ? (ownView().hand ?? []) : []);

  // ---- judging a selection: the stateless combo routes ------------------------------------

  let judging = 0;
  /** Is the selection a combo (classify), and does it beat the top play (compare, with the
   *  烤牌 cover where the ruleset has it)? Only the latest question's answer is shown. */
  async function judgeSelection() {
    const asked = ++judging;
    const cards = selectedCodes();
    const view = state.answer.view;
    if (!cards.length) {
      state.feedback = null;
      return renderControls();
    }
    const top = view.trick.top;
    const answer = await (
      top
        ? api.post("v1/combos/compare", { previous: top.cards, candidate: cards, ruleset: view.ruleset })
        : api.post("v1/combos/classify", { cards, ruleset: view.ruleset })
    ).catch(() => null);
    if (asked !== judging) return;
    if (!answer) return; // no answer: the table still judges the move itself
    state.feedback = answer.ok
      ? { top: Boolean(top), ...answer.body }
      : { problem: answer.body?.errors?.[0] };
    renderControls();
  }

  function toggle(key) {
    if (state.selected.has(key)) state.selected.delete(key);
    else state.selected.add(key);
    state.verdict = null; // a new selection: the last refusal was about another
    // only the card and the controls change: the hand stays as it is, and so does the focus
    root
      .querySelector(`button[data-key="${CSS.escape(key)}"]`)
      ?.setAttribute("aria-pressed", String(state.selected.has(key)));
    renderControls();
    judgeSelection();
  }

  function clearSelection() {
    state.selected.clear();
    for (const card of root.querySelectorAll('button[data-key][aria-pressed="true"]'))
      card.setAttribute("aria-pressed", "false");
    judgeSelection();
  }

  // ---- hints: the seat's legal moves (GET …/legal-moves) ----------------------------------

  /** Select the next play of the seat's legal moves, cheapest first, round again after the last.
   *  With a top play these are exactly the plays that beat it. */
  async function hint() {
    if (state.hints === null) {
      const answer = await api.get(`${path}/legal-moves`).catch((error) => ({ error }));
      if (answer.error) {
        state.verdict = { code: answer.error instanceof TimeoutError ? "TIMEOUT" : "NETWORK" };
        return renderControls();
      }
      if (answer.status === 404 && !answer.body?.errors?.some((e) => e.code === "TABLE_NOT_FOUND")) {
        state.hintRoute = false; // a service without the route: no hint button from now on
        return renderControls();
      }
      if (!answer.ok) return;
      state.hints = answer.body.moves.filter((move) => move.action === "play");
      state.hintAt = -1;
    }
    state.selected.clear();
    if (!state.hints.length) {
      state.verdict = { note: t("noHint") };
      return render();
    }
    state.hintAt = (state.hintAt + 1) % state.hints.length;
    const cards = [...state.hints[state.hintAt].cards];
    for (const card of hand()) {
      const at = cards.indexOf(card.code);
      if (at >= 0) {
        cards.splice(at, 1);
        state.selected.add(card.key);
      }
    }
    state.verdict = null;
    render();
    judgeSelection();
  }

  // ---- replay: a finished deal, step by step ---------------------------------------------------

  async function openReplay() {
    // the deal's record, as this caller may see it (record.js)
    const steps = await openRecord(api, path, state.answer.table.deal);
    if (!steps) return;
    state.replay = { steps, at: 0 };
    render();
  }

  function stepReplay(to) {
    const { steps } = state.replay;
    state.replay.at = Math.max(0, Math.min(steps.length - 1, to));
    render();
  }

  function renderReplay() {
    const { steps, at } = state.replay;
    const step = steps[at];
    const last = steps.length - 1;
    const nav = (name, label, to, disabled) =>
      button(name, label, () => stepReplay(to), null, disabled);
    return h(
      "section",
      { class: "replay", "data-region": "replay", "data-step": at, "data-steps": last },
      h("h2", {}, t("replayTitle"), " · ", t("replayStep", { n: at, total: last })),
      h(
        "div",
        { class: "actions" },
        nav("replay-first", t("first"), 0, at === 0),
        nav("replay-back", t("previous"), at - 1, at === 0),
        nav("replay-next", t("next"), at + 1, at === last),
        nav("replay-last", t("last"), last, at === last),
        button("replay-close", t("closeReplay"), () => {
          state.replay = null;
          render();
        }),
      ),
      h("p", { class: "replay-what" }, step.event ? describe(step.event) : t("replayStart")),
      h(
        "div",
        { class: "seats" },
        [0, 1, 2, 3, 4].map((seat) =>
          h(
            "article",
            { class: `seat${step.event?.seat === seat ? " turn" : ""}`, "data-replay-seat": seat },
            h("h2", {}, seatName(seat, ownSeat())),
            h(
              "div",
              { class: `play${step.over ? " done" : ""}` },
              step.plays[seat]
                ? h("span", { "data-play": step.plays[seat].join(" ") }, cardRow(step.plays[seat], { small: true }))
                : null,
            ),
            step.hands[seat]
              ? h(
                  "div",
                  { class: "full-hand", "data-replay-hand": seat, "data-region": seat === ownSeat() ? "replay-own" : null },
                  cardRow(step.hands[seat], { small: true }),
                )
              : null,
          ),
        ),
      ),
    );
  }

  // ---- rendering ---------------------------------------------------------------------------

  /** The seat this page plays (its own, or in hot-seat the seat to act), or null. */
  const ownSeat = () => (state.role === "seat" || state.role === "hotseat" ? ownView().seat : null);

  /** Re-draw the feedback, the verdict and the buttons under the hand, keeping the focus. */
  function renderControls() {
    const controls = root.querySelector(".controls");
    if (!controls) return;
    const focused = document.activeElement?.dataset?.focus;
    const view = ownView();
    controls.replaceWith(renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)));
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  function render() {
    if (!state.answer) return;
    const focused = document.activeElement?.dataset?.focus;
    const { view } = state.answer;
    const spec = rulesetSpec(view.ruleset, state.defaults);
    const playing = state.role === "seat" || state.role === "hotseat";
    fill(
      root,
      renderStatus(view, spec),
      h(
        "div",
        { class: "seats" },
        seatOrder(view).map((seat) => renderSeat(view, seat)),
      ),
      renderTrick(view),
      renderCrown(view),
      renderOver(view),
      state.replay ? renderReplay() : null,
      renderLog(),
      // 托管 and leaving are rare: below the log, out of the way of the actions of every turn
      state.role === "seat" && state.answer.table?.seats
        ? h("div", { class: "actions seat-menu" }, renderSeatClock(view, state.answer.table.seats[view.seat]))
        : null,
      // last in the page and sticky at the bottom of the screen: the actions and the hand stay
      // in reach while the rest scrolls
      playing && !state.replay && ownView().hand ? renderOwn(ownView()) : null, // hot-seat: none once over
    );
    root.dataset.version = state.answer.version; // tests wait for the version they expect
    root.dataset.role = state.role;
    if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
    tick();
  }

  /** A seat sees the others in playing order after it, itself last (next to its hand). */
  function seatOrder(view) {
    const own = ownSeat();
    const first = own === null ? 0 : own + 1;
    return [0, 1, 2, 3, 4].map((step) => (first + step) % 5);
  }

  function renderStatus(view, spec) {
    const options = [
      spec.kaopai && t("kaopai"),
      spec.bie6 && t("bie6"),
      spec.deck === "short" && t("deck_short"),
    ];
    const own = ownSeat();
    const whose = view.over
      ? t("over")
      : view.turn === own
        ? state.role === "hotseat"
          ? `${seatName(own)} · ${t("yourTurn")}`
          : t("yourTurn")
        : t("waiting", { seat: seatName(view.turn) });
    const role = {
      seat: seatName(view.seat),
      spectator: t("spectator"),
      operator: t("operator"),
      hotseat: t("hotseatTitle"),
    }[state.role];
    return h(
      "header",
      { class: "status" },
      h("span", { class: "who" }, role),
      h("strong", { class: view.turn === own && !view.over ? "your-turn" : "", "data-region": "to-act" }, whose),
      h("span", { class: "countdown", id: "countdown", hidden: true }),
      h(
        "span",
        { class: `connection ${state.connection}`, "data-connection": state.connection },
        t(state.connection),
      ),
      h(
        "span",
        { class: "about" },
        `${state.answer.id} · ${t(`ruleset_${spec.base}`)}`,
        ...options.filter(Boolean).map((o) => ` · ${o}`),
        " · ",
        t(`phase_${view.phase}`),
        view.crown?.stage ? ` · ${t(`stage_${view.crown.stage}`)}` : "",
        view.mode !== "team" ? ` · ${t(`mode_${view.mode}`)}` : "", // 暗独 shows only to the emperor
      ),
      h("span", { class: "version", title: `${t("version")} ${state.answer.version}` }, `v${state.answer.version}`),
    );
  }

  /** Role badges, as far as this caller may know them: the view names the guard only when it is
   *  shown (明保), to the guard itself, or once the deal is over (G-8). */
  function badges(view, seat) {
    const list = [];
    const seats = state.answer.table?.seats;
    if (view.phase === "crown") {
      if (seat === view.emperor) list.push(["crown", t("crownHolder")]);
    } else if (seat === view.emperor) list.push(["emperor", t("emperor")]);
    const own = ownSeat();
    if (view.guard === seat && view.guard !== view.emperor) {
      list.push([
        "guard",
        view.guard_revealed || view.over || own === null || own !== seat ? t("guard") : t("hiddenGuard"),
      ]);
    }
    // the role 革命党, and apart from it the action 造反 for a seat that declared it
    if (rebel(view, seat)) list.push(["rebel", t("roleRebel")]);
    if (view.rebellion.includes(seat)) list.push(["rebelled", t("rebelled")]);
    if (seats?.[seat]?.trustee) list.push(["trustee", t("trustee")]);
    if (seats?.[seat]?.left) list.push(["left", t("left")]);
    const place = view.positions ? view.positions[seat] - 1 : view.finished.indexOf(seat);
    if (place >= 0) list.push(["place", t(PLACES[place])]);
    return list.map(([kind, label]) => h("span", { class: `badge ${kind}`, "data-badge": kind }, label));
  }

  /** Whether ``seat`` is known to this caller as a rebel (革命党): once roles are settled, every
   *  seat but the emperor in a game without a guard, every seat but a known guard, and a seat
   *  itself when its view names no guard (the guard always sees itself, G-8). */
  function rebel(view, seat) {
    if (view.phase !== "play" || seat === view.emperor) return false;
    if (view.mode !== "team") return true;
    if (view.guard !== null) return seat !== view.guard;
    return seat === ownSeat();
  }

  function renderSeat(view, seat) {
    const trick = view.trick;
    const played = state.trick.plays[seat] ?? (trick.top?.seat === seat ? trick.top.cards : null);
    const marks = [
      trick.passed.includes(seat) && t("passed"),
      trick.yielded.includes(seat) && t("yielded"),
      trick.jiefeng === seat && t("jiefeng"),
    ].filter(Boolean);
    const total = state.answer.table?.totals?.[seat];
    const count = view.counts?.[seat] ?? view.hands[seat].length; // a platform's view has hands
    const own = ownSeat();
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
        seatName(seat, state.role === "seat" ? own : null),
        h("span", { class: "count" }, ` · ${count} ${t("cards")}`),
      ),
      h("div", { class: "badges" }, badges(view, seat)),
      total !== undefined ? h("p", { class: "total" }, `${t("total")} ${total}`) : null,
      h(
        "div",
        { class: `play${state.trick.over ? " done" : ""}` },
        played ? h("span", { "data-play": played.join(" ") }, cardRow(played, { small: true })) : null,
        marks.map((mark) => h("span", { class: "mark" }, mark)),
      ),
      state.role === "operator"
        ? h("div", { class: "full-hand", "data-hand": seat }, cardRow(view.hands[seat], { small: true }))
        : null,
    );
  }

  /** The trick in the middle of the table: the play to beat and who made it, or who leads. */
  function renderTrick(view) {
    if (view.phase !== "play" || view.over) return null;
    const top = view.trick.top;
    return h(
      "section",
      { class: "trick", "data-region": "trick", "aria-label": t("trick") },
      h("span", { class: "label" }, t("trick")),
      top
        ? [
            h("span", {}, t("topPlay", { seat: seatName(top.seat) })),
            h("span", { "data-play": top.cards.join(" ") }, cardRow(top.cards)),
          ]
        : h("span", {}, t("toLead", { seat: seatName(view.turn) })),
    );
  }

  /** Before play: the crown's hand-ons and the cards travelling with it; the called card. */
  function renderCrown(view) {
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

  function renderOwn(view) {
    return h(
      "section",
      { class: "own", "aria-label": t("hand"), "data-own-seat": view.seat },
      renderOwnControls(view, rulesetSpec(view.ruleset, state.defaults)),
      h("h2", {}, state.role === "hotseat" ? `${seatName(view.seat)} · ` : "", t("hand"), ` · ${view.hand.length} ${t("cards")}`),
      h(
        "div",
        { class: "hand", "data-region": "hand" },
        byRank(hand()).map((group) =>
          h(
            "div",
            { class: "group" },
            group.map((card) =>
              cardElement(card.code, { button: true, key: card.key, selected: state.selected.has(card.key) }),
            ),
          ),
        ),
      ),
    );
  }

  /** What the seat may do now, and what the referee said of its selection or its last move. */
  function renderOwnControls(view, spec) {
    const actions =
      view.phase === "play" ? playActions(view, view.seat, spec) : beforePlayActions(view, view.seat, spec);
    const call = actions.includes("call") ? renderCallPicker(view) : null;
    return h(
      "div",
      { class: "controls", "data-region": "actions" },
      call,
      h(
        "div",
        { class: "actions" },
        actions.map((action) => actionButton(action, view)),
        actions.includes("play") && state.hintRoute ? button("hint", t("hint"), hint, "H") : null,
        actions.includes("play") ? button("clear", t("clear"), clearSelection, "Esc") : null,
      ),
      renderFeedback(),
      state.verdict ? renderVerdict(state.verdict) : null,
      actions.includes("play") ? h("p", { class: "hint keys" }, t("shortcuts")) : null,
    );
  }

  function button(name, label, onclick, key = null, disabled = false) {
    return h(
      "button",
      {
        type: "button",
        class: `action ${name}`,
        "data-action": name,
        "data-focus": `action:${name}`,
        onclick,
        disabled: disabled || state.busy,
      },
      label,
      key ? h("kbd", {}, key) : null,
    );
  }

  /** The cards that may be called (G-2), drawn as cards: pressing one chooses it. */
  function renderCallPicker(view) {
    const options = keyed(callable(view.hand));
    if (!options.some(({ code }) => code === state.callCard)) state.callCard = options[0]?.code ?? null;
    return h(
      "div",
      // the seat's own cards (G-2: a card it holds three of), drawn as cards
      { class: "call-picker", role: "radiogroup", "aria-label": t("called"), "data-region": "call" },
      h("span", { class: "label" }, `${t("called")}: `),
      options.map(({ code }) => {
        const card = cardElement(code, { small: true });
        return h(
          "button",
          {
            type: "button",
            class: "call-card",
            role: "radio",
            "data-call-card": code,
            "data-focus": `call:${code}`,
            "aria-checked": String(code === state.callCard),
            onclick: () => {
              state.callCard = code;
              renderControls();
            },
          },
          card,
        );
      }),
    );
  }

  function actionButton(action, view) {
    const key = Object.keys(SHORTCUTS)
      .find((k) => SHORTCUTS[k] === action)
      ?.toUpperCase();
    if (action === "play")
      return button("play", t("play"), () => move("play"), key, state.selected.size === 0);
    if (action === "call")
      return button("call", t("call"), () => move("call", { card: state.callCard }), null, !state.callCard);
    const label = action === "decline" && view.phase === "crown" ? t("declineCrown") : t(action);
    return button(action, label, () => move(action), key);
  }

  /** 托管 and leaving, where the table keeps clocks (T-11, S-9). */
  function renderSeatClock(view, mine) {
    if (!mine || view.over) return null;
    const seat = view.seat;
    return [
      button("trustee", mine.trustee ? t("trusteeOff") : t("trusteeOn"), () =>
        send(`/seats/${seat}/trustee`, { on: !mine.trustee }),
      ),
      mine.left
        ? null
        : button("leave", t("leave"), () => confirm(t("leaveSure")) && send(`/seats/${seat}/leave`, {})),
    ];
  }

  /** A reason as a player reads it: the sentence its code picks; code and rule on hover. */
  function reason(code, rule) {
    return h("span", { class: "reason", "data-code": code, title: rule ? `${code} (${rule})` : code }, reasonText(code));
  }

  function renderFeedback() {
    const f = state.feedback;
    if (!f) return h("p", { class: "feedback", "aria-live": "polite" });
    if (f.problem)
      return h("p", { class: "feedback bad", "aria-live": "polite" }, reason(f.problem.code, f.problem.rule));
    const good = f.top ? f.beats : f.valid;
    const what = f.top ? (f.beats ? t("beats") : t("doesNotBeat")) : f.valid ? t("combo") : t("notCombo");
    return h(
      "p",
      { class: `feedback ${good ? "good" : "bad"}`, "aria-live": "polite" },
      good ? "✓ " : "✗ ",
      what,
      f.reason ? [" — ", reason(f.reason.code, f.reason.rule)] : "",
      // 烤牌 (K-6): which cards of the selection cover which card of the top play
      f.cover?.some((item) => item.by.length > 1)
        ? h(
            "span",
            { class: "cover" },
            ` ${t("cover")}: `,
            f.cover.map((item) =>
              h(
                "span",
                { class: "covered" },
                cardRow(item.by, { small: true }),
                " → ",
                cardRow([item.card], { small: true }),
              ),
            ),
          )
        : null,
    );
  }

  function renderVerdict(verdict) {
    if (verdict.note) return h("p", { class: "verdict note", role: "status" }, verdict.note);
    return h(
      "p",
      { class: "verdict", role: "alert" },
      h("strong", {}, `${t("refused")}: `),
      reason(String(verdict.code), verdict.rule),
    );
  }

  function renderOver(view) {
    if (!view.over) return null;
    const next =
      (state.role === "operator" || state.role === "hotseat") && state.answer.table
        ? button("next-deal", t("nextDeal"), () => send("/deals", {}))
        : null;
    const replay = state.replay ? null : button("replay", t("replay"), openReplay);
    if (view.void) return h("section", { class: "over" }, h("h2", {}, t("void")), next);
    const rows = [0, 1, 2, 3, 4].map((seat) =>
      h(
        "tr",
        {},
        h("th", {}, seatName(seat, ownSeat())),
        h("td", {}, view.positions ? t(PLACES[view.positions[seat] - 1]) : ""),
        h("td", { class: "score" }, state.scores ? String(state.scores[seat]) : ""),
      ),
    );
    return h(
      "section",
      { class: "over" },
      h("h2", {}, t("over")),
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("positions")), h("th", {}, t("score")))),
        h("tbody", {}, rows),
      ),
      h("div", { class: "actions" }, replay, next),
    );
  }

  /** A log line: the sentence of its event (state.js picks the label), and its cards. */
  function describe(entry) {
    const line = logLine(entry);
    const own = ownSeat();
    const params = { ...line.params };
    for (const [name, seat] of Object.entries(line.seats ?? {})) params[name] = seatName(seat, own);
    for (const [name, seats] of Object.entries(line.seatLists ?? {}))
      params[name] = seats.map((seat) => seatName(seat, own)).join(t("and"));
    for (const [name, cause] of Object.entries(line.causes ?? {})) params[name] = t(`cause_${cause}`);
    for (const [name, place] of Object.entries(line.places ?? {})) params[name] = t(PLACES[place - 1]);
    const cards = eventCards(entry);
    return [
      h("span", {}, t(line.key, params)),
      cards.length ? h("span", { "data-play": cards.join(" ") }, " ", cardRow(cards, { small: true })) : null,
    ];
  }

  function renderLog() {
    const items = state.log
      .slice(-60)
      .reverse()
      .map((entry) => h("li", { "data-seq": entry.seqs.join(" ") }, describe(entry)));
    // open by default for those who only watch; a player's choice is kept across renders
    const open = state.logOpen ?? (state.role === "operator" || state.role === "spectator");
    const details = h("details", { class: "log", open: open || null }, h("summary", {}, t("log")), h("ol", {}, items));
    details.addEventListener("toggle", () => (state.logOpen = details.open));
    return details;
  }

  /** The countdown of the seat to act, where the table keeps a clock; every 250 ms. */
  function tick() {
    const element = document.getElementById("countdown");
    if (!element) return;
    const left = state.deadline === null ? null : state.deadline - (Date.now() / 1000 + api.skew);
    element.hidden = left === null || state.answer.view.over;
    // no ⏱: an emoji is an empty box where the system has no emoji font
    if (left !== null) element.textContent = t("timeLeft", { n: Math.max(0, Math.ceil(left)) });
  }
  setInterval(tick, 250);

  // ---- keyboard: cards are buttons (Enter and Space press them); letters act ---------------

  root.addEventListener("click", (event) => {
    const card = event.target.closest("button[data-key]");
    if (card && root.contains(card)) toggle(card.dataset.key);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey)
      return;
    if (event.key === "Escape") return clearSelection();
    const action = event.key.toLowerCase() === "h" ? "hint" : SHORTCUTS[event.key.toLowerCase()];
    if (action) root.querySelector(`button[data-action="${action}"]:not([disabled])`)?.click();
  });
  document.addEventListener("languagechange", render);

  // ---- start: the rulesets, then the stream ------------------------------------------------

  fill(root, h("p", {}, t("connecting")));
  const rulesets = await api.get("v1/rulesets").catch(() => null);
  state.defaults = rulesets?.ok ? rulesets.body : [];
  watch(api, tableId, {
    async onOpen(table) {
      await loadTrick(table.last_seq);
      accept(table); // the snapshot frame: render from the view
    },
    async onEvent(event) {
      note(event);
      if (event.version > state.answer.version) await reread();
      else render();
    },
    onStatus(status) {
      // back after a drop: the stream resumes after the last event it gave, and the table is
      // read again in case an event arrived while a read could not be made
      if (status === "live" && (state.connection === "retrying" || state.connection === "paused")) reread();
      state.connection = status;
      render();
    },
    onEnd(reason) {
      state.connection = "closed";
      if (!state.answer) fill(root, h("p", { class: "verdict", role: "alert" }, t("badLink")));
      else render();
      root.dataset.ended = reason;
    },
  });
}
