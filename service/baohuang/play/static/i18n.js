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
  waiting: ["Waiting for seat", "等待座位"],
  emperor: ["Emperor 皇帝", "皇帝"],
  crownHolder: ["Holds the crown 皇牌", "持皇牌"],
  guard: ["Guard 侍卫", "侍卫"],
  hiddenGuard: ["Guard 侍卫 (hidden 暗保)", "侍卫（暗保）"],
  rebel: ["Rebel 革命党", "革命党"],
  rebelled: ["造反 rebelled", "造反"],
  trustee: ["托管 auto-play", "托管"],
  left: ["left the table", "已离开"],
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
  refused: ["Refused", "不合规则"],
  conflict: ["Someone moved first: the table was read again.", "他人已先出，已重新读取牌桌。"],
  over: ["The deal is over", "本局结束"],
  void: ["Void deal 黄庄: dealt again", "黄庄，重新发牌"],
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
  shortcuts: [
    "Keys: P play · S pass · Y yield · J 接风 · Esc clear",
    "快捷键：P 出牌 · S 过 · Y 让牌 · J 接风 · Esc 清除",
  ],
  seconds: ["s", "秒"],
  version: ["version", "版本"],
};

// Event types (docs/clients.md): English shows the type as the API spells it.
const EVENTS = {
  played: "出牌",
  passed: "过",
  yielded: "让牌",
  jiefeng: "接风",
  trick_won: "赢得本轮",
  finished: "出完",
  deal_over: "本局结束",
  crown_passed: "让庄",
  crown_forced: "逼庄",
  accepted: "登基",
  declined: "不要",
  grabbed: "抢庄",
  called: "叫牌",
  solo_declared: "明独",
  revealed: "明保",
  rebelled: "造反",
  deal_void: "黄庄",
  phase: "进入阶段",
  clock: "计时",
  trustee: "托管",
  left: "离开",
  deal_started: "新一局",
};

/** An event's type, as the API spells it (English) or in Chinese. */
export function eventName(type) {
  return current ? (EVENTS[type] ?? type) : type;
}

const SUITS = {
  S: ["spades", "黑桃"],
  H: ["hearts", "红桃"],
  C: ["clubs", "梅花"],
  D: ["diamonds", "方块"],
};

let current = navigator.language?.startsWith("zh") ? 1 : 0;

/** The label `key` in the current language (the key itself when there is none). */
export function t(key) {
  return LABELS[key]?.[current] ?? key;
}

/** The name of a suit letter. */
export function suitName(letter) {
  return SUITS[letter]?.[current] ?? letter;
}

export function lang() {
  return current ? "zh" : "en";
}

export function toggleLang() {
  current = 1 - current;
  document.documentElement.lang = current ? "zh-CN" : "en";
}

document.documentElement.lang = current ? "zh-CN" : "en";
