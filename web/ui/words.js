// Messages in plain words. Python's messages are written for programs and people at once
// ("two 5s in row 1 (...)", or a sentence followed by "; use mode 'count', or engine ..."): the
// page shows them as sentences (capital first, full stop last) and
// moves what only a programmer needs (the JSON path, clauses in the protocol's words) into
// details, which the page folds away (web/app.js: "Technical details"): people read no paths.

// A clause in the protocol's words: it names a request field with a quoted value, or quotes
// JSON ("box": [...]).
const PROTOCOL_WORDS = /\b(?:mode|engine|symmetry|limit|kind|symbols)\s+'[^']*'|"[A-Za-z_]+"\s*:|\bpuzzle\.[A-Za-z_]/;

/** "two 5s in row 1" -> "Two 5s in row 1." (a capital first, a full stop unless one ends it). */
export function sentence(text) {
  const trimmed = String(text ?? "").trim();
  if (!trimmed) return "";
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * A message split for reading: {text: the sentence, details: the protocol's part or ""}.
 * Clauses after the first one ("; "-separated) that use the protocol's words go to details,
 * with the JSON path (path) at the end.
 */
export function plainMessage(message, path = "") {
  const clauses = String(message ?? "").split("; ");
  const plain = [clauses[0]];
  const technical = [];
  for (const clause of clauses.slice(1)) (PROTOCOL_WORDS.test(clause) ? technical : plain).push(clause);
  if (path) technical.push(`at ${path} in the request`);
  return { text: sentence(plain.join("; ")), details: technical.length ? sentence(technical.join("; ")) : "" };
}

/** Seconds left, in words: "under a second", "40 s", "3 min", "2 h 5 min", "more than a year". */
export function durationWords(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 1) return "under a second";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.round((seconds - hours * 3600) / 60);
    return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  }
  if (seconds < 365 * 86_400) return `${Math.round(seconds / 86_400)} days`;
  return "more than a year";
}

/**
 * The time left of one long search, in words, from Knuth's estimate of the fraction done:
 * returns timeLeft(fraction, seconds) -> "about 2 min left" ("" until there is something to go
 * on: a fraction strictly between 0 and 1 after a second). The plain figure, seconds x (1 - f) /
 * f, jumps with every change in the estimate of the tree (13 s, then 41 s, on a 3-minute count);
 * here the expected total time is smoothed instead, over a window a quarter as long as the search
 * so far (at least two seconds), so the words move steadily and still follow a real change.
 */
export function createTimeLeft() {
  let total = null; // the smoothed expected total, in seconds
  let at = 0; // the search's time at the last estimate taken in
  return function timeLeft(fraction, seconds) {
    if (!(fraction > 0) || fraction >= 1 || !(seconds >= 1)) return "";
    const sample = seconds / fraction;
    if (total === null) total = sample;
    else total += Math.min(1, Math.max(0, seconds - at) / Math.max(2, seconds / 4)) * (sample - total);
    at = seconds;
    // Behind a search that ran past the smoothed total: the plain figure until it catches up.
    const left = total > seconds ? total - seconds : sample - seconds;
    const words = durationWords(left);
    return /^(under|more than)/.test(words) ? `${words} left` : `about ${words} left`;
  };
}

/** Engines named by their titles in text for a person: "engine 'profile_dp'" -> "engine
 *  “Profile DP”" (engines: facts' [{name, title}]; unknown names stay as they are). */
export function withEngineTitles(text, engines) {
  const titles = new Map(engines.map(({ name, title }) => [name, title]));
  return String(text).replace(/\b([Ee])ngine '([a-z_0-9]+)'/g, (whole, e, name) => (titles.has(name) ? `${e}ngine “${titles.get(name)}”` : whole));
}
