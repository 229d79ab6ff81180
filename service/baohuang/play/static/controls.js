// The own hand and what the seat may do with it: the actions, the cards it may call, what the
// referee said of its selection and the notice of its last request (words.js), and the hand
// itself (laid out by hand.js). Drawn from the controller's state (table.js), as view.js draws
// the board; `c` is the same face of the controller.

import { REQUEST_TIMEOUT_MS } from "./api.js";
import { beforePlayActions, callable, playActions, rulesetSpec } from "./actions.js";
import { cardElement, cardRow, keyed } from "./cards.js";
import { h } from "./dom.js";
import { reasonText, seatName, t } from "./i18n.js";

/** The keys that press an action's button (table.js listens; the buttons show them). */
export const SHORTCUTS = { p: "play", s: "pass", y: "yield", j: "jiefeng" };

/** The hand and its actions, below the board — or nothing: in hot-seat none once over; a seat
 *  that is out, or a finished deal, has nothing to act on. */
export function handPanel(c) {
  const own = c.playing() ? c.seatView() : null;
  if (!own || c.state.replay || own.over || !own.hand?.length) return null;
  return renderOwn(c, own);
}

/** The actions, the feedback and the notice alone, drawn again without the hand. */
export function controlsView(c) {
  const view = c.seatView();
  return renderOwnControls(c, view, rulesetSpec(view.ruleset, c.state.defaults));
}

/** The hand and what the seat may do with it: below the board, every card on screen. */
function renderOwn(c, view) {
  return h(
    "section",
    { class: "own", "aria-label": t("hand"), "data-own-seat": view.seat },
    renderOwnControls(c, view, rulesetSpec(view.ruleset, c.state.defaults)),
    h("h2", {}, c.state.role === "hotseat" ? `${seatName(view.seat)} · ` : "", t("hand"), ` · ${view.hand.length} ${t("cards")}`),
    h(
      "div",
      { class: "hand", "data-region": "hand" },
      c.hand().map((card) =>
        cardElement(card.code, { button: true, key: card.key, selected: c.state.selected.has(card.key) }),
      ),
    ),
  );
}

/** What the seat may do now, and what the referee said of its selection or its last move. */
function renderOwnControls(c, view, spec) {
  const actions =
    view.phase === "play" ? playActions(view, view.seat, spec) : beforePlayActions(view, view.seat, spec);
  const call = actions.includes("call") ? renderCallPicker(c, view) : null;
  const seatState = c.state.answer.table?.seats?.[view.seat];
  const ruled = c.state.notice?.kind === "rule"; // the table's verdict says it: no second refusal
  return h(
    "div",
    { class: "controls", "data-region": "actions" },
    seatState?.trustee && c.state.role === "seat"
      ? h("p", { class: "note", "data-trustee-note": "" }, t(seatState.entered > 3 ? "ownTrusteeLocked" : "ownTrustee"))
      : null,
    call,
    h(
      "div",
      { class: "actions" },
      actions.map((action) => actionButton(c, action, view)),
      actions.includes("play") && c.state.hintRoute ? button(c, "hint", t("hint"), c.act.hint, "H") : null,
      actions.includes("play") ? button(c, "clear", t("clear"), c.act.clear, "Esc") : null,
    ),
    ruled ? null : renderFeedback(c),
    c.state.notice ? renderNotice(c, c.state.notice) : null,
    actions.includes("play") ? h("p", { class: "hint keys" }, t("shortcuts")) : null,
  );
}

/** An action's button: disabled while a write is on its way; `key` its shortcut, shown where
 *  there is a keyboard; `describedBy` the id of what says why it is disabled. */
export function button(c, name, label, onclick, key = null, disabled = false, describedBy = null) {
  return h(
    "button",
    {
      type: "button",
      class: `action ${name}`,
      "data-action": name,
      "data-focus": `action:${name}`,
      onclick,
      disabled: disabled || c.state.busy,
      "aria-describedby": describedBy,
    },
    label,
    key ? h("kbd", {}, key) : null,
  );
}

/** The cards that may be called (G-2), drawn as cards: pressing one chooses it. With none, the
 *  reason the Call button is disabled. */
function renderCallPicker(c, view) {
  const options = keyed(callable(view.hand));
  const chosen = callChosen(c, view);
  if (!options.length) return h("p", { class: "note", id: "call-none", "data-region": "call" }, t("callNone"));
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
          "aria-checked": String(code === chosen),
          onclick: () => {
            c.act.chooseCall(code);
          },
        },
        card,
      );
    }),
  );
}

/** The card to call: the one the player chose, while the hand can call it, else the first the
 *  hand can call (G-2), or null. */
function callChosen(c, view) {
  const options = callable(view.hand);
  return options.includes(c.state.callCard) ? c.state.callCard : (keyed(options)[0]?.code ?? null);
}

function actionButton(c, action, view) {
  const key = Object.keys(SHORTCUTS)
    .find((k) => SHORTCUTS[k] === action)
    ?.toUpperCase();
  if (action === "play") {
    // disabled until a selection, and for one the referee already said cannot be played
    const refused = c.selectionRefused();
    return button(c, "play", t("play"), () => c.act.move("play"), key, c.state.selected.size === 0 || refused, refused ? "feedback" : null);
  }
  if (action === "call")
    return button(c, 
      "call",
      t("call"),
      () => c.act.move("call", { card: callChosen(c, view) }),
      null,
      !callChosen(c, view),
      callChosen(c, view) ? null : "call-none",
    );
  const label = action === "decline" && view.phase === "crown" ? t("declineCrown") : t(action);
  return button(c, action, label, () => c.act.move(action), key);
}

/** A reason as a player reads it: the sentence its code picks; code and rule on hover. */
export function reason(code, rule) {
  return h("span", { class: "reason", "data-code": code, title: rule ? `${code} (${rule})` : code }, reasonText(code));
}

function renderFeedback(c) {
  const f = c.state.feedback;
  const at = { id: "feedback", "aria-live": "polite" };
  if (!f) return h("p", { class: "feedback", ...at });
  if (f.problem) return h("p", { class: "feedback bad", ...at }, reason(f.problem.code, f.problem.rule));
  const good = f.top ? f.beats : f.valid;
  const what = f.top ? (f.beats ? t("beats") : t("doesNotBeat")) : f.valid ? t("combo") : t("notCombo");
  return h(
    "p",
    { class: `feedback ${good ? "good" : "bad"}`, ...at },
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

/** The notice, worded by its kind (words.js): a rule's verdict with its reason; a request
 *  that failed, with what to do; a note. */
function renderNotice(c, notice) {
  const kind = notice.kind;
  if (kind === "rule")
    return h(
      "p",
      { class: "verdict", role: "alert", "data-kind": kind },
      h("strong", {}, `${t("refused")}: `),
      reason(String(notice.code), notice.rule),
    );
  if (kind === "conflict" || kind === "landed" || kind === "missed" || kind === "noHint") {
    const key = { conflict: "conflict", noHint: "noHint" }[kind] ?? kind;
    return h("p", { class: "verdict note", role: "status", "data-kind": kind }, t(key));
  }
  const key = kind === "timeout" && !notice.move ? "trouble_timeout_read" : `trouble_${kind}`;
  return h(
    "p",
    { class: "verdict trouble", role: "alert", "data-kind": kind },
    t(key, { n: REQUEST_TIMEOUT_MS / 1000 }),
  );
}
