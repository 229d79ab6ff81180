// A finished deal stepped through, one move at a time or one trick at a time: the view of the
// steps record.js makes of the deal's record (recordSteps), which table.js opens.

import { cardRow } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { trickOf, trickStep } from "./state.js";

/** The replay's section. `replay` is {steps, at}; `ctx` gives what the table's view knows:
 *  nameOf(seat), describe(event) (a log line), `own` (the seat whose hand is the player's, or
 *  null), go(step), close(), and button(name, label, onclick, key, disabled). */
export function replayView({ steps, at }, ctx) {
  const step = steps[at];
  const last = steps.length - 1;
  const trick = trickOf(steps, at);
  const nav = (name, label, to, disabled) => ctx.button(name, label, () => ctx.go(to), null, disabled);
  return h(
    "section",
    { class: "replay", "data-region": "replay", "data-step": at, "data-steps": last },
    h(
      "h2",
      {},
      t("replayTitle"),
      " · ",
      t("replayStep", { n: at, total: last }),
      " · ",
      h("span", { "data-trick": trick.n }, t("replayTrick", trick)),
    ),
    h(
      "div",
      { class: "actions" },
      nav("replay-first", t("first"), 0, at === 0),
      nav("replay-trick-back", t("prevTrick"), trickStep(steps, at, -1), at === 0),
      nav("replay-back", t("previous"), at - 1, at === 0),
      nav("replay-next", t("next"), at + 1, at === last),
      nav("replay-trick-next", t("nextTrick"), trickStep(steps, at, 1), at === last),
      nav("replay-last", t("last"), last, at === last),
      ctx.button("replay-close", t("closeReplay"), ctx.close),
    ),
    h("p", { class: "replay-what" }, step.event ? ctx.describe(step.event) : t("replayStart")),
    h(
      "div",
      { class: "seats" },
      [0, 1, 2, 3, 4].map((seat) =>
        h(
          "article",
          {
            class: `seat${step.event?.seat === seat ? " turn" : ""}${step.hands[seat] ? " with-hand" : ""}`,
            "data-replay-seat": seat,
          },
          h("h2", {}, ctx.nameOf(seat)),
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
                { class: "full-hand", "data-replay-hand": seat, "data-region": seat === ctx.own ? "replay-own" : null },
                cardRow(step.hands[seat], { small: true }),
              )
            : null,
        ),
      ),
    ),
  );
}
