// Labels in English and Chinese. English labels of game terms keep the Chinese term beside them,
// so that a reader of either language learns the words the rules (docs/rules.md) use.

const LABELS = {
  title: ["Baohuang table", "保皇牌桌"],
  language: ["中文", "English"], // the toggle names the *other* language
  seat: ["Seat", "座位"],
  you: ["you", "你"],
  cards: ["cards", "张"],
  hand: ["Your hand", "手牌"],
  turn: ["to act", "出牌中"],
  yourTurn: ["Your turn", "轮到你了"],
  waiting: ["Waiting for {seat}", "等待{seat}"],
  emperor: ["Emperor 皇帝", "皇帝"],
  crownHolder: ["Crown 皇牌", "持皇牌"],
  guard: ["Guard 侍卫", "侍卫"],
  hiddenGuard: ["Guard 侍卫 (hidden 暗保)", "侍卫（暗保）"],
  roleRebel: ["Rebel 革命党", "革命党"], // the role; the action 造反 is `rebel` below
  rebelled: ["造反 rebelled", "造反"],
  trustee: ["托管 auto", "托管"],
  bot: ["bot", "机器人"],
  left: ["left 离开", "已离开"],
  total: ["total", "总分"],
  mode_team: ["team play", "保皇"],
  mode_solo_hidden: ["hidden solo 暗独", "暗独"],
  mode_solo_open: ["declared solo 明独", "明独"],
  mode_grab: ["grab 抢庄", "抢庄"],
  revealed: ["明保 shown", "明保"],
  phase_crown: ["The crown is offered", "叫庄"],
  phase_guard: ["Settling the guard", "定侍卫"],
  phase_play: ["Play", "出牌"],
  stage_grab: ["grab round 抢独", "抢独"],
  stage_call: ["the emperor calls a card", "叫牌"],
  stage_declare: ["明保 / 造反 round", "明保/造反"],
  called: ["called card", "叫牌"],
  pile: ["travels with the crown", "随皇牌"],
  passes: ["hand-ons", "让庄次数"],
  trick: ["Trick", "本轮"],
  lead: ["leads", "发牌"],
  circle2: ["second circle (让牌)", "第二圈（让牌）"],
  kaopai: ["烤牌 kaopai", "烤牌"],
  bie6: ["憋6 bie6", "憋6"],
  deck_short: ["short deck", "短牌"],
  deck: ["Deck", "牌组"],
  deck_full: ["full deck", "整副牌"],
  ruleset_classic: ["classic", "经典"],
  ruleset_tribute: ["tribute 进贡", "进贡"],
  "ruleset_lianzhong-classic": ["lianzhong classic 连中", "连中经典"],
  "ruleset_lianzhong-simple": ["lianzhong simple 连中", "连中简易"],
  grabOption: ["grab 抢庄", "抢庄"],
  pass: ["Pass 过", "过"],
  passed: ["passed 过", "过"],
  yield: ["Yield 让牌", "让牌"],
  yielded: ["yielded 让牌", "让牌"],
  jiefeng: ["接风 take the lead", "接风"],
  play: ["Play 出牌", "出牌"],
  clear: ["Clear", "清除"],
  accept: ["Accept the crown 登基", "登基"],
  decline: ["Decline 不要", "不要"],
  declineCrown: ["Hand the crown on 让庄", "让庄"],
  call: ["Call 叫牌", "叫牌"],
  declare_solo: ["Play alone 明独", "明独"],
  grab: ["Grab 抢庄", "抢庄"],
  reveal: ["Show yourself 明保", "明保"],
  rebel: ["Rebel 造反", "造反"],
  trusteeOn: ["托管 on", "开启托管"],
  trusteeOff: ["托管 off", "取消托管"],
  leave: ["Leave the table", "离开牌桌"],
  leaveSure: ["Leave the table? 托管 plays your seat from now on.", "确定离开？之后由托管代打。"],
  nextDeal: ["Next deal", "下一局"],
  combo: ["a combo", "合法牌型"],
  notCombo: ["not a combo", "不成牌型"],
  beats: ["beats the top play", "压得过"],
  doesNotBeat: ["does not beat", "压不过"],
  cover: ["cover", "烤牌对应"],
  refused: ["Not allowed", "不合规则"],
  conflict: ["Someone moved first: the table was read again.", "他人已先出，已重新读取牌桌。"],
  over: ["The deal is over", "本局结束"],
  // the end of a deal (words.js picks them): what happened, and why a void deal is void (S-10)
  outcome_NO_EMPEROR: ["Void deal 黄庄: nobody took the crown", "黄庄：无人登基"],
  outcome_ALL_TRUSTEE: ["Not scored 不予计分: every seat was in 托管", "不予计分：所有座位都在托管中"],
  outcome_void: ["Void deal: not scored", "本局作废，不计分"],
  "why_G-5": [
    "The crown was handed on five times, and then no seat held three of one card to call (逼庄).",
    "皇牌让了五次，之后没有座位持有三张相同的牌可叫（逼庄）。",
  ],
  "why_G-6": ["Every seat passed the crown, and the first seat passed it again.", "每个座位都让了庄，首家再次让庄。"],
  "why_G-7": ["流局: two rounds of the crown went by without an emperor.", "流局：叫庄两轮无人登基。"],
  "why_T-11": [
    "托管 was playing every seat when the deal ended: such a deal counts for nobody, and every seat scores 0 (T-11).",
    "本局结束时所有座位都由托管代打：按规则不予计分，各座位均得0分。",
  ],
  voidAgain: ["The deal is not scored; it is to be dealt again.", "本局不计分，需重新发牌。"],
  timedOut: ["{seats}: time ran out, and 托管 played on.", "{seats}：超时，由托管代打。"],
  trusteeEnd: ["托管 played the end of the deal for {seats}.", "本局最后由托管代打：{seats}。"],
  winner_emperor: ["The emperor's side wins.", "皇帝一方获胜。"],
  winner_rebels: ["The rebels win.", "革命党获胜。"],
  winner_draw: ["Neither side wins: a draw.", "双方平局。"],
  positions: ["Places", "名次"],
  score: ["score", "得分"],
  place1: ["头科 1st", "头科"],
  place2: ["二科 2nd", "二科"],
  place3: ["三科 3rd", "三科"],
  place4: ["二落 4th", "二落"],
  place5: ["大落 5th", "大落"],
  log: ["Event log", "事件记录"],
  connecting: ["connecting…", "连接中…"],
  live: ["live", "实时"],
  retrying: ["reconnecting…", "重新连接中…"],
  closed: ["this table is gone", "牌桌已关闭"],
  badLink: ["This link does not open a table (wrong or old token).", "链接无效（令牌错误或已过期）。"],
  spectator: ["Spectator", "旁观"],
  operator: ["Operator", "管理"],
  platformKey: ["Platform key", "平台密钥"],
  keyNote: [
    "Kept in this page's memory only; leave empty on a development service.",
    "只保存在本页内存中；开发环境可留空。",
  ],
  open: ["Open", "打开"],
  start: ["Start a table", "开一桌"],
  ruleset: ["Ruleset", "规则"],
  seed: ["Seed", "种子"],
  dealer: ["Dealer", "庄家座位"],
  tableId: ["Table id", "牌桌编号"],
  deal: ["Deal", "发牌"],
  links: ["Links", "链接"],
  seatLink: ["Seat", "座位"],
  spectatorLink: ["Spectator", "旁观"],
  operatorLink: ["Operator (asks for the platform key)", "管理（需平台密钥）"],
  needsKey: [
    "This service has platform keys: tables are created by the platform. Open a seat or spectator link.",
    "本服务已配置平台密钥：牌桌由平台创建。请打开座位或旁观链接。",
  ],
  noClock: ["The service keeps no clock; the table was created without one.", "服务未提供计时，牌桌无计时。"],
  hint: ["Hint 提示", "提示"],
  noHint: ["Nothing beats the top play: pass.", "没有压得过的牌，请过。"],
  timeout: ["The service did not answer in time: check your connection, then try again.", "服务未及时响应：请检查网络后重试。"],
  network: ["The service cannot be reached: check your connection, then try again.", "无法连接服务：请检查网络后重试。"],
  // what went wrong with a request, by kind (words.js): none of these is a rule's verdict
  trouble_timeout: [
    "No answer from the table within {n} s. Your move may still have reached it: if it did, it shows on the table in a moment; if not, try again.",
    "牌桌{n}秒内未响应。你的操作可能已送达：若已生效，稍后会显示在牌桌上；否则请重试。",
  ],
  trouble_timeout_read: ["No answer from the table in time: try again in a moment.", "牌桌未及时响应：请稍后重试。"],
  trouble_network: [
    "No connection to the table: check your network. The page reconnects by itself; then try again.",
    "无法连接牌桌：请检查网络。页面会自动重连，之后请重试。",
  ],
  trouble_busy: ["The table is busy: wait a moment, then try again.", "牌桌繁忙：请稍等后重试。"],
  trouble_link: ["This link no longer opens this seat: ask for a new link.", "此链接已无法打开该座位：请索取新链接。"],
  trouble_gone: ["This table is gone.", "牌桌已关闭。"],
  trouble_request: [
    "The table could not read this request: reload the page, then try again.",
    "牌桌无法处理此请求：请刷新页面后重试。",
  ],
  landed: ["Your move went through: its answer came late.", "你的操作已生效（响应较慢）。"],
  missed: [
    "Your move did not reach the table before it moved on: look again, then choose.",
    "你的操作未能在牌桌变化前送达：请查看后重新选择。",
  ],
  paused: ["paused (tab hidden)", "已暂停（标签页隐藏）"],
  clock: ["Clock", "计时"],
  clockNone: ["no clock", "不计时"],
  clockSeconds: ["{n} s a turn", "每步 {n} 秒"],
  clockNote: [
    "Hot-seat and practice start the clock at once; with links, you start it once the players are there.",
    "同屏与练习立即开始计时；用链接时，由你在每位玩家打开链接后开始计时。",
  ],
  startClock: ["Start the clock", "开始计时"],
  clockWaiting: [
    "The clock ({n} s a turn) is not running yet: start it once every player has opened their link.",
    "计时（每步 {n} 秒）尚未开始：每位玩家打开链接后，请开始计时。",
  ],
  clockStarted: ["The clock is running: {n} s a turn.", "计时已开始：每步 {n} 秒。"],
  clockNotStarted: ["The clock could not be started on this service.", "本服务无法开始计时。"],
  hotseat: ["Play all five seats here (hot-seat)", "一人同屏玩五个座位"],
  hotseatTitle: ["Hot-seat", "同屏"],
  practice: ["Practice: you are seat 0, against four bots", "练习：你是座位0，对手是四个机器人"],
  botLevel: ["Practice bots", "练习机器人"],
  level_heuristic: ["heuristic: quick, plays by rules of thumb", "启发式：出牌快，凭经验"],
  level_search: ["search: thinks about a second a move, stronger", "搜索：每步约想1秒，更强"],
  orLinks: ["Or give each player a link:", "或给每位玩家一个链接："],
  linksButton: ["Deal and make links", "发牌并生成链接"],
  toLead: ["{seat} leads", "{seat} 先出"],
  topPlay: ["{seat} played", "{seat} 出了"],
  replay: ["Replay the deal", "回放本局"],
  replayTitle: ["Replay", "回放"],
  replayStep: ["step {n} of {total}", "第 {n} / {total} 步"],
  replayStart: ["the deal as dealt", "开局"],
  first: ["« First", "« 开始"],
  previous: ["◀ Back", "◀ 上一步"],
  next: ["Next ▶", "下一步 ▶"],
  last: ["Last »", "结束 »"],
  closeReplay: ["Close", "关闭"],
  shortcuts: [
    "Keys: P play · S pass · Y yield · J 接风 · Esc clear",
    "快捷键：P 出牌 · S 过 · Y 让牌 · J 接风 · Esc 清除",
  ],
  seconds: ["s", "秒"],
  timeLeft: ["{n} s left", "剩 {n} 秒"],
  version: ["version", "版本"],
  seatN: ["Seat {n}", "座位{n}"],
  youN: ["Seat {n} (you)", "座位{n}（你）"],
  botN: ["Seat {n} (bot)", "座位{n}（机器人）"],
  callNone: ["No card to call: you hold no three of one card (G-2).", "没有可叫的牌：你没有三张相同的牌。"],
  ownTrustee: ["托管 is playing for you: press 托管 off to play yourself.", "托管正在代你出牌：按“取消托管”可自己出牌。"],
  ownTrusteeLocked: [
    "托管 plays for you to the end of this deal: it was turned on more than three times (T-11).",
    "本局托管已超过三次，将代你打完本局。",
  ],
  youOut: ["You are out: {place}", "你已出完：{place}"],
  handLeft: ["Left in your hand", "剩余手牌"],
  prevTrick: ["◀◀ Trick", "◀◀ 上一轮"],
  nextTrick: ["Trick ▶▶", "下一轮 ▶▶"],
  replayTrick: ["trick {n} of {total}", "第 {n} / {total} 轮"],

  // the live region (announcer.js): a screen reader reads these as the table moves
  announcer: ["Table announcements", "牌桌播报"],
  say_played: ["{seat} plays {cards}", "{seat} 出 {cards}"],
  say_turn: ["{seat} to act", "轮到{seat}"],

  // the log: one sentence per event a player cares about (state.js folds the rest away)
  ev_played: ["{seat} played", "{seat} 出牌"],
  ev_passed: ["{seats} passed", "{seats} 过"],
  ev_yielded: ["{seat} yielded 让牌", "{seat} 让牌"],
  ev_jiefeng: ["{seat} takes the lead 接风", "{seat} 接风"],
  ev_trick_won: ["{seat} wins the trick; {lead} leads", "{seat} 赢得本轮，{lead} 出牌"],
  ev_finished: ["{seat} is out: {place}", "{seat} 出完：{place}"],
  ev_deal_over: ["The deal is over", "本局结束"],
  ev_crown_passed: ["{seat} hands the crown to {to} 让庄", "{seat} 让庄给 {to}"],
  ev_crown_forced: ["{seat} must take the crown 逼庄", "{seat} 逼庄"],
  ev_accepted: ["{seat} takes the crown 登基", "{seat} 登基"],
  ev_declined: ["{seat} says no 不要", "{seat} 不要"],
  ev_grabbed: ["{seat} grabs 抢庄", "{seat} 抢庄"],
  ev_called: ["{seat} calls a card 叫牌", "{seat} 叫牌"],
  ev_solo_declared: ["{seat} plays alone 明独", "{seat} 明独"],
  ev_revealed: ["{seat} shows itself as the guard 明保", "{seat} 明保"],
  ev_rebelled: ["{seat} rebels 造反", "{seat} 造反"],
  ev_deal_void: ["Nobody took the crown: void deal 黄庄", "无人登基：黄庄"],
  ev_phase_guard: ["The guard is settled next", "进入定侍卫"],
  ev_phase_play: ["Play begins: {seat} leads", "开始出牌：{seat} 先出"],
  ev_trustee_on: ["{seat}: 托管 plays for it ({cause})", "{seat} 托管（{cause}）"],
  ev_trustee_off: ["{seat} plays again itself (托管 off)", "{seat} 取消托管"],
  ev_left: ["{seat} left the table", "{seat} 离开牌桌"],
  ev_deal_started: ["Deal {deal} begins", "第 {deal} 局开始"],
  ev_other: ["The table moved on", "牌桌已更新"],
  cause_timeout: ["time ran out", "超时"],
  cause_request: ["asked for", "自行开启"],
  cause_leave: ["left the table", "离开牌桌"],
  and: [", ", "、"],
};

// Refusals: the reason code picks the sentence; the code and its rule id stay on hover (title).
const REASONS = {
  EMPTY_PLAY: ["Choose the cards to play first.", "请先选择要出的牌。"],
  MIXED_RANKS: ["Those cards are not one combo: play cards of one rank (jokers may join).", "这些牌不成牌型：请出同一点数的牌（可带王）。"],
  SIZE_MISMATCH: ["Play as many cards as the top play.", "出牌张数须与上家相同。"],
  NOT_HIGHER: ["That does not beat the top play: play higher, or pass.", "压不过上家：请出更大的牌，或选择过。"],
  BIG_JOKER_UNBEATABLE: ["Nothing beats a big joker here.", "大王无牌可压。"],
  NO_COVER: ["Those cards cannot roast the top play (烤牌).", "这些牌不能烤上家的牌。"],
  SIX_HELD_BACK: ["A 6 may not be played this way (憋6).", "此时不能这样出6（憋6）。"],
  NOT_YOUR_TURN: ["It is not your turn.", "还没轮到你。"],
  CARDS_NOT_IN_HAND: ["Those cards are not in your hand.", "你手中没有这些牌。"],
  LEADER_CANNOT_PASS: ["You lead this trick: play something.", "你是本轮首家，必须出牌。"],
  YIELD_NOT_ALLOWED: ["You may not yield (让牌) now.", "现在不能让牌。"],
  JIEFENG_NOT_ALLOWED: ["You may not take the lead (接风) now.", "现在不能接风。"],
  PLAYER_FINISHED: ["That seat has played all its cards.", "该座位已出完牌。"],
  DEAL_OVER: ["The deal is over.", "本局已结束。"],
  WRONG_PHASE: ["That is not a move of this part of the deal.", "现在不是这个阶段的动作。"],
  ACTION_NOT_AVAILABLE: ["That is not possible now.", "现在不能这样做。"],
  CALL_CARD_NOT_ALLOWED: ["That card may not be called.", "不能叫这张牌。"],
  CANNOT_CALL: ["You cannot call a card now.", "现在不能叫牌。"],
  CANNOT_ACCEPT: ["You cannot take the crown now.", "现在不能登基。"],
  ACCEPT_BY_CALLING: ["Take the crown by calling a card.", "请通过叫牌登基。"],
  MUST_ACCEPT: ["You must take the crown.", "你必须登基。"],
  MUST_CALL: ["You must call a card.", "你必须叫牌。"],
  NOT_CROWN_HOLDER: ["You do not hold the crown.", "你没有皇牌。"],
  GRAB_NOT_ALLOWED: ["You may not grab (抢庄) now.", "现在不能抢庄。"],
  SOLO_NOT_ALLOWED: ["You may not play alone (明独) now.", "现在不能明独。"],
  REVEAL_NOT_ALLOWED: ["Only the guard may show itself (明保).", "只有侍卫能明保。"],
  REBEL_NOT_ALLOWED: ["You may not rebel (造反) now.", "现在不能造反。"],
  TRUSTEE_LOCKED: ["托管 has been asked too often this deal: it stays on.", "本局托管次数过多，不能取消。"],
  SEAT_LEFT: ["That seat has left the table.", "该座位已离开牌桌。"],
  DEAL_NOT_OVER: ["The deal is not over yet.", "本局尚未结束。"],
  VERSION_CONFLICT: ["Someone moved first: the table was read again.", "他人已先出，已重新读取牌桌。"],
  OVERLOADED: ["The table is busy. Try again in a moment.", "牌桌繁忙，请稍后重试。"],
  STORE_UNAVAILABLE: ["The table is unavailable. Try again in a moment.", "牌桌暂不可用，请稍后重试。"],
  RATE_LIMITED: ["Too many requests. Try again in a moment.", "请求过多，请稍后重试。"],
  UNAUTHORIZED: ["This link no longer opens the table.", "此链接已无法打开牌桌。"],
  FORBIDDEN: ["This seat may not do that.", "此座位不能这样做。"],
  TABLE_NOT_FOUND: ["This table is gone.", "牌桌已关闭。"],
};

/** The sentence for a reason code, in the current language: a player reads this, never the
 *  code (which the page keeps in a title, with the rule id, for whoever hovers). */
export function reasonText(code) {
  return REASONS[code]?.[current] ?? ["The table refused this.", "牌桌拒绝了此操作。"][current];
}

/** Every string of the page, both languages: the CJK subset font is made from these
 *  (tools/cjk_font.py), and a test checks that the font holds every character they use. */
export function allStrings() {
  return [...Object.values(LABELS), ...Object.values(REASONS), ...Object.values(SUITS)].flat();
}

const SUITS = {
  S: ["spades", "黑桃"],
  H: ["hearts", "红桃"],
  C: ["clubs", "梅花"],
  D: ["diamonds", "方块"],
};

// The language: the player's last choice on this browser (localStorage), else the browser's
// own; outside a browser (the node tests) English.
const STORED = "baohuang.lang";

function stored() {
  try {
    return globalThis.localStorage?.getItem(STORED) ?? null;
  } catch {
    return null; // storage refused (a privacy setting): the choice lasts as long as the page
  }
}

let current = (stored() ?? globalThis.navigator?.language ?? "en").startsWith("zh") ? 1 : 0;

/** The label `key` in the current language, its {name}s filled from `params` (the key itself
 *  when there is none: a missing label shows up in a test, not as an empty space). */
export function t(key, params = {}) {
  const label = LABELS[key]?.[current] ?? key;
  return label.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** "Seat 3", "Seat 3 (you)" for the page's own seat, "Seat 3 (bot)" for a seat a bot plays. */
export function seatName(seat, own = null, { bot = false } = {}) {
  return t(seat === own ? "youN" : bot ? "botN" : "seatN", { n: seat });
}

/** The name of a suit letter. */
export function suitName(letter) {
  return SUITS[letter]?.[current] ?? letter;
}

export function lang() {
  return current ? "zh" : "en";
}

/** Show the page in `language` ("en" or "zh") and keep the choice for the next visit. */
export function setLang(language, { keep = true } = {}) {
  current = language === "zh" ? 1 : 0;
  if (globalThis.document) document.documentElement.lang = current ? "zh-CN" : "en";
  if (!keep) return;
  try {
    globalThis.localStorage?.setItem(STORED, lang());
  } catch {
    // storage refused: the choice lasts as long as the page
  }
}

export function toggleLang() {
  setLang(current ? "en" : "zh");
}

if (globalThis.document) document.documentElement.lang = current ? "zh-CN" : "en";
