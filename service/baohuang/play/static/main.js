// The page's entry: what to show comes from the URL fragment, which never leaves the browser.
//   #table=ID&token=TOKEN   a seat or a spectator (the token says which)
//   #table=ID&key           the operator: the platform key is typed into the page
//   #table=ID&hotseat       one page plays all five seats (a development service: no key)
//   (nothing)               start a table on a development service

import { fill, h } from "./dom.js";
import { t, toggleLang } from "./i18n.js";
import { keyPrompt, startPage } from "./setup.js";
import { openTable } from "./table.js";

const root = document.getElementById("app");
const params = new URLSearchParams(location.hash.slice(1));
const tableId = params.get("table");

// The language toggle: every view re-renders on "languagechange".
const language = document.getElementById("language");
function labels() {
  document.title = t("title");
  language.textContent = t("language");
}
language.addEventListener("click", () => {
  toggleLang();
  labels();
  document.dispatchEvent(new Event("languagechange"));
});
labels();

if (tableId && params.get("token")) {
  openTable(root, tableId, params.get("token"));
} else if (tableId && params.has("hotseat")) {
  openTable(root, tableId, null, { hotseat: true });
} else if (tableId && params.has("key")) {
  if (params.get("key")) {
    // A key typed into the address bar would sit in the history: drop it, and ask for it below.
    history.replaceState(null, "", `#table=${encodeURIComponent(tableId)}&key`);
  }
  keyPrompt(root, tableId, openTable);
} else {
  // the service did not answer (a timeout) or cannot be reached: say so in the player's words
  startPage(root).catch((error) =>
    fill(root, h("p", { class: "verdict", role: "alert" }, t(error.name === "TimeoutError" ? "timeout" : "network"))),
  );
}

// A new fragment is a new page: start again from it.
window.addEventListener("hashchange", () => location.reload());
